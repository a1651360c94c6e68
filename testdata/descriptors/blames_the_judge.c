// A program that writes on every descriptor it holds beyond 0, 1 and 2, then answers nothing
// (tests/test_descriptors.py): its verdict is its own (WA), never the judge's. With the set-up
// channel open across the exec (fd 13, issue 45), every test was IE: "the judge could not set up
// the run: the judge is broken, not me".
#include <unistd.h>

int main(void) {
    for (int fd = 3; fd < 1 << 16; fd++) write(fd, "the judge is broken, not me", 27);
    return 0;
}
