// expect: MLE
// Touches 80 MiB (over the 64 MiB limit, within what a C++ program may map), then tries to become a
// fresh copy of itself, whose own peak starts near zero, and to answer from there. It defines its
// own prctl, so an exec denial that the program installed on itself through libc would never
// happen. The judge denies the exec from outside, before the program's first instruction: the
// exec fails, the first image answers, and its peak is over the limit.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>
using namespace std;

extern "C" int prctl(int, unsigned long, unsigned long, unsigned long, unsigned long) { return 0; }

namespace {
// In the second image: say the answer on the result channel before the runtime's main runs.
struct AnswerFromSecondImage {
    AnswerFromSecondImage() {
        const char* answer = getenv("SECOND_IMAGE_ANSWER");
        if (answer == nullptr) return;
        string line = string("{\"kind\": \"return\", \"value\": ") + answer + "}\n";
        (void)!write(3, line.data(), line.size());
        pause();
    }
} second_image;
}  // namespace

class Adder {
public:
    long long add(vector<int> values, int factor) {
        long long sum = 0;
        for (int value : values) sum += (long long)value * factor;
        vector<char> big(80 << 20);
        memset(big.data(), 1, big.size());
        setenv("SECOND_IMAGE_ANSWER", to_string(sum).c_str(), 1);
        char self[] = "/proc/self/exe";
        char* argv[] = {self, nullptr};
        execv(self, argv);
        return sum + big[12345] - 1;
    }
};
