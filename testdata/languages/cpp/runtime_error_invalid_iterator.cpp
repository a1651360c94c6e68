// expect: RE
// Writes through an iterator that a push_back invalidated: the vector moved to a larger buffer and
// the old one (large enough to be a mapping of its own) was returned to the kernel. Killed by
// SIGSEGV far from the stack: no "stack overflow" hint.
#include <vector>
using namespace std;

class Adder {
public:
    long long add(vector<int> values, int factor) {
        vector<int> items(1 << 18, factor);
        vector<int>::iterator first = items.begin();
        items.push_back(factor);
        *first = 7;
        return items[0] + *first;
    }
};
