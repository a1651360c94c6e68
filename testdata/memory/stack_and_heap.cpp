// expect: MLE
// Memory the data limit does not count: 88 MiB of heap (the data limit is the memory limit + 32 MiB),
// then recursion without end whose small frames fill the stack, which may grow to the memory limit
// on its own. Together they pass the memory limit + 64 MiB: the memory cgroup stops it there;
// without one, the stack's limit does.
#include <vector>
using namespace std;

int down(int k) {
    volatile int frame[16];
    frame[0] = k;
    return down(k + 1) + frame[0];
}

class Adder {
public:
    long long add(vector<int> values, int factor) {
        vector<char> held(88 << 20, char(factor));
        return down(held[12345]) + held.size();
    }
};
