// expect: AC
// Globals, statics and members start afresh for every test: a leftover from an earlier test would
// change the answer.
#include <vector>
using namespace std;

long long calls = 0;
vector<int> seen;

class Adder {
    int uses = 0;

public:
    long long add(vector<int> values, int factor) {
        static int statics = 0;
        long long total = calls++ + statics++ + uses++ + (long long)seen.size();
        seen.push_back(1);
        for (int v : values) total += (long long)v * factor;
        return total;
    }
};
