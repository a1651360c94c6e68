// expect: RE
// Throws an exception out of the method.
#include <stdexcept>
#include <vector>
using namespace std;

class Adder {
public:
    long long add(vector<int> values, int factor) {
        return values.at(values.size() + 1) * factor;
    }
};
