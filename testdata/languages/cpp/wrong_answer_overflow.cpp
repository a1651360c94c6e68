// expect: WA
// Sums in 32 bits: the large test overflows.
#include <vector>
using namespace std;

class Adder {
public:
    long long add(vector<int> values, int factor) {
        int total = 0;
        for (int v : values) total += v * factor;
        return total;
    }
};
