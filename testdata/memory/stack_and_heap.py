# expect: MLE
# expect from Python 3.12: RE
# Memory the data limit does not count: 40 MiB of heap, then recursion through C (lru_cache) that
# fills the interpreter's stack, which may grow to the memory limit on its own. Together they pass
# the memory limit + 64 MiB: the memory cgroup stops it there; without one, the stack's limit does.
# From Python 3.12 the interpreter's own C budget ends that recursion with a RecursionError long
# before the stack is full (as under `python3 solution.py`): RE, its peak within the same bound.
# The C++ twin still fills the stack on every Python (docs/verdicts.md, "Python versions").
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
