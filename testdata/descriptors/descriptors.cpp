// The descriptors a C++ solution's process holds from its first instruction on (tests/test_descriptors.py),
// as a method solution (class Adder, called by our runtime) and as a program (its own main): a static
// object's constructor, run before any main, writes one line per open descriptor on standard error,
// "fd N KIND ACCESS" (/proc is out of reach under Landlock: every number is probed); add and main then
// fail (RE), so that the judge keeps what was written.
#include <fcntl.h>
#include <sys/stat.h>
#include <cstdio>
#include <stdexcept>
#include <vector>

struct Listing {
    Listing() {
        static const char *access[] = {"r", "w", "rw", "?"};
        for (int fd = 0; fd < 1 << 16; fd++) {
            struct stat st;
            int flags = fcntl(fd, F_GETFL);
            if (flags < 0 || fstat(fd, &st) != 0) continue;
            const char *kind = S_ISFIFO(st.st_mode) ? "pipe" : S_ISCHR(st.st_mode) ? "device"
                             : S_ISREG(st.st_mode) ? "file" : S_ISSOCK(st.st_mode) ? "socket"
                             : S_ISDIR(st.st_mode) ? "folder" : "other";
            std::fprintf(stderr, "fd %d %s %s\n", fd, kind, access[flags & O_ACCMODE]);
        }
    }
} listing;

class Adder {
public:
    long long add(std::vector<int> values, int factor) { throw std::runtime_error("descriptors listed"); }
};

int main() { return 1; }
