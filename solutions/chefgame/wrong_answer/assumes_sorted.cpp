// Wrong answer: takes each pile in the given order instead of sorting it (and keeps duplicates).
#include <string>
#include <vector>
using namespace std;

class ChefGame {
public:
    string choose(vector<vector<int> > piles) {
        long long total = 0;
        for (const vector<int>& stalk : piles) {
            long long weight = 1LL << 45;
            bool changed = false;
            for (size_t k = 0; k < stalk.size(); ++k) {
                if (stalk[k] % 2 != stalk[0] % 2) changed = true;
                if (changed) weight >>= 1;
                total += stalk[k] % 2 == 0 ? weight : -weight;
            }
        }
        return total > 0 ? "EVEN" : total < 0 ? "ODD" : "DON'T PLAY";
    }
};
