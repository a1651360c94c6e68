// C++ port of reference.py: each pile is a Hackenbush stalk (sorted, duplicates removed); edges up
// to the first parity change are worth 1 each, every later one half the edge below. Values are
// fixed-point with 45 fraction bits in a long long. Accepted.
#include <bits/stdc++.h>
using namespace std;

class ChefGame {
public:
    string choose(vector<vector<int> > piles) {
        long long total = 0;
        for (size_t p = 0; p < piles.size(); ++p) {
            set<int> distinct(piles[p].begin(), piles[p].end());
            vector<int> stalk(distinct.begin(), distinct.end());
            long long weight = 1LL << 45;
            bool changed = false;
            for (size_t k = 0; k < stalk.size(); ++k) {
                if (stalk[k] % 2 != stalk[0] % 2) changed = true;
                if (changed) weight >>= 1;
                total += stalk[k] % 2 == 0 ? weight : -weight;
            }
        }
        if (total > 0) return "EVEN";
        if (total < 0) return "ODD";
        return "DON'T PLAY";
    }
};

int main() {  // local testing, as archive solutions often have: never called by the judge
    ChefGame game;
    cout << game.choose({{1, 2, 3}, {4}}) << endl;
}
