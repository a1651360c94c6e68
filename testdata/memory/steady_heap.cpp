// expect: MLE
// Allocates steadily, a MiB at a time, past the 64 MiB limit (each MiB touched, so it is resident).
#include <cstring>
#include <vector>
using namespace std;

class Adder {
public:
    long long add(vector<int> values, int factor) {
        vector<char*> held;
        for (;;) {
            char* block = new char[1 << 20];
            memset(block, factor, 1 << 20);
            held.push_back(block);
        }
    }
};
