# expect: MLE
# Recursion without end under a huge recursion limit: the frames fill the 64 MiB memory limit.
import sys

sys.setrecursionlimit(10**9)


def down(k, pad):
    return down(k + 1, [k] * 8)


class Stability:
    def run(self, n):
        return down(0, None)
