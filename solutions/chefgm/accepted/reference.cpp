// Port of reference.py: every pile is a Blue-Red Hackenbush stalk (even numbers are Chef's "EVEN"
// edges, odd numbers the opponent's), so a game is the sum of its stalk values. A stalk has at most
// 45 distinct numbers, so its value is an exact integer in units of 2**-45; a game of up to 100
// piles stays far below 2**63.
#include <algorithm>
#include <cstdio>
#include <vector>

static long long stalk_value(const std::vector<long long>& stalk) {
    long long value = 0, weight = 1LL << 45;
    bool changed = false;
    for (long long number : stalk) {
        changed = changed || number % 2 != stalk[0] % 2;
        if (changed) weight >>= 1;
        value += number % 2 == 0 ? weight : -weight;
    }
    return value;
}

int main() {
    int games;
    if (std::scanf("%d", &games) != 1) return 1;
    while (games--) {
        int piles;
        std::scanf("%d", &piles);
        long long total = 0;
        for (int p = 0; p < piles; p++) {
            int count;
            std::scanf("%d", &count);
            std::vector<long long> stalk(count);
            for (long long& number : stalk) std::scanf("%lld", &number);
            std::sort(stalk.begin(), stalk.end());
            stalk.erase(std::unique(stalk.begin(), stalk.end()), stalk.end());
            total += stalk_value(stalk);
        }
        std::puts(total > 0 ? "EVEN" : total < 0 ? "ODD" : "DON'T PLAY");
    }
}
