# expect: MLE
# Memory the data limit does not count: 40 MiB of heap, then recursion through C (lru_cache) that
# fills the interpreter's stack, which may grow to the memory limit on its own. Together they pass
# the memory limit + 64 MiB: the memory cgroup stops it there; without one, the stack's limit does.
import functools
import sys

sys.setrecursionlimit(10**8)


@functools.lru_cache(maxsize=None)
def steps(k):
    return 0 if k == 0 else 1 + steps(k - 1)


class Adder:
    def add(self, values, factor):
        held = b"x" * (40 << 20)
        return steps(10**7) + len(held)
