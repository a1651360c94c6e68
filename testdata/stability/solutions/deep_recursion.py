# expect: AC
# Recurses 100,000 deep after raising the recursion limit (a common memoized-DP habit).
import sys

sys.setrecursionlimit(1_000_000)


def depth(k):
    return 0 if k == 0 else 1 + depth(k - 1)


class Stability:
    def run(self, n):
        return 2 * n + 1 + depth(100_000) - 100_000
