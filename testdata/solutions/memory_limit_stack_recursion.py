# expect: MLE
# A memoized search with lru_cache after raising the recursion limit: each call goes through C, so
# the recursion fills the interpreter's own stack. The stack limit is the memory limit, so the
# stack's pages reach the memory limit first: MLE. (Under a judge whose hard stack limit is below
# the memory limit, the stack runs out first: RE, with the stack-overflow hint; tests/test_crash_hints.py.)
import functools
import sys

sys.setrecursionlimit(10**8)


@functools.lru_cache(maxsize=None)
def steps(k):
    return 0 if k == 0 else 1 + steps(k - 1)


class Adder:
    def add(self, values, factor):
        return steps(10**7)
