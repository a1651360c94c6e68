// expect: AC
// TopCoder style: its own includes, using namespace std, a const-reference parameter.
#include <vector>
using namespace std;

class Adder {
public:
    long long add(const vector<int>& values, int factor) {
        long long total = 0;
        for (int v : values) total += (long long)v * factor;
        return total;
    }
};
