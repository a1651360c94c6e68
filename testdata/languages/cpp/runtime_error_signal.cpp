// expect: RE
// Dereferences a null pointer: killed by SIGSEGV, with no "stack overflow" hint.
#include <vector>
using namespace std;

class Adder {
public:
    long long add(vector<int> values, int factor) {
        volatile int* nothing = nullptr;
        return *nothing + factor;
    }
};
