# expect: AC
# Recurses 100,000 deep after raising the recursion limit, as TopCoder memo solutions often do.
import sys

sys.setrecursionlimit(1_000_000)


def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)


class Adder:
    def add(self, values, factor):
        return sum(values) * factor + depth(100_000) - 100_000
