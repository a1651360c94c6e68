# Plays every game out: the state is how many of each pile's sorted distinct numbers are left,
# memoised with whose turn it is. Correct, but the state space is the product of (distinct
# numbers + 1) over the piles, up to 46**100: time limit exceeded on the first large game.
import sys
from functools import lru_cache


def solve(stalks):
    @lru_cache(maxsize=None)
    def wins(heights, parity):
        """Whether the player taking numbers of this parity wins when moving now."""
        for i, height in enumerate(heights):
            for cut in range(height):
                if stalks[i][cut] % 2 == parity and not wins(heights[:i] + (cut,) + heights[i + 1:], 1 - parity):
                    return True
        return False

    start = tuple(len(stalk) for stalk in stalks)
    return "EVEN" if wins(start, 0) else "ODD" if wins(start, 1) else "DON'T PLAY"


sys.setrecursionlimit(100000)
words = iter(sys.stdin.read().split())
for _ in range(int(next(words))):
    stalks = []
    for _ in range(int(next(words))):
        stalks.append(tuple(sorted({int(next(words)) for _ in range(int(next(words)))})))
    print(solve(tuple(stalks)))
