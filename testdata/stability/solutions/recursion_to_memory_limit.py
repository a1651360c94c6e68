# expect: MLE
# Recursion without end under a huge recursion limit: the frames, each holding a 32 KiB list, fill the
# 64 MiB memory limit in under half of the 0.3 s time limit (lists of 8 took all of it on 3.11, and
# on a loaded machine the CPU limit struck first: TLE).
import sys

sys.setrecursionlimit(10**9)


def down(k, pad):
    return down(k + 1, [k] * 4096)


class Stability:
    def run(self, n):
        return down(0, None)
