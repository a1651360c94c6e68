// expect: CE
#include <vector>
using namespace std;

class Adder {
public:
    long long add(vector<int> values, int factor) {
        return values.size() * factor  // missing semicolon
    }
};
