// expect: TLE
#include <vector>
using namespace std;

class Adder {
public:
    long long add(vector<int> values, int factor) {
        volatile long long spin = 0;
        while (true) spin++;
        return spin;
    }
};
