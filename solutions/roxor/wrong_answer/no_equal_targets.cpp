// Wrong answer: both new stones must go to different piles (k > j), so a winning move that puts
// both on the same pile is never found.
#include <vector>
using namespace std;

class Roxor {
    static int odious(int m) { return 2 * m + (1 - __builtin_popcount(m) % 2); }

public:
    vector<int> play(vector<int> piles) {
        int n = piles.size();
        vector<int> grundy(n, 0);
        for (int p = 0; p < n - 1; ++p) grundy[p] = odious(n - 2 - p);
        int total = 0;
        for (int p = 0; p < n; ++p)
            if (piles[p] % 2) total ^= grundy[p];
        for (int i = 0; i < n; ++i) {
            if (piles[i] == 0) continue;
            for (int j = i + 1; j < n; ++j)
                for (int k = j + 1; k < n; ++k)
                    if ((total ^ grundy[i] ^ grundy[j] ^ grundy[k]) == 0) return {i, j, k};
        }
        return {};
    }
};
