// expect: RE
// Recursion without end whose frames each hold a large local array that is barely used: the stack
// reaches its limit (the memory limit) while little of it is resident. Killed by SIGSEGV, with the
// fault address at the stack's limit: "stack overflow".
#include <vector>
using namespace std;

int deeper(int k) {
    volatile char scratch[1 << 19];
    scratch[0] = char(k);
    return deeper(k + 1) + scratch[0];
}

class Adder {
public:
    long long add(vector<int> values, int factor) {
        return deeper(factor);
    }
};
