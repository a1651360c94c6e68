// The package's checker, in the testlib habit: it includes testlib.h and a helper header beside it.
#include "testlib.h"
#include "sums.h"

int main(int argc, char **argv) {
    registerKattisChecker(argc, argv);
    long expected = ans.readLong();
    long got = ouf.readLong();
    if (!same_sum(expected, got)) quitf(_wa, "expected %ld, got %ld", expected, got);
    if (!ouf.seekEof()) quitf(_wa, "more output after the sum");
    quitf(_ok, "the sum");
}
