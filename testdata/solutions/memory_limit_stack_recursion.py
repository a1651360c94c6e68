# expect: MLE
# expect from Python 3.12: RE
# A memoized search with lru_cache after raising the recursion limit: each call goes through C, so
# the recursion fills the interpreter's own stack. The stack limit is the memory limit, so the
# stack's pages reach the memory limit first: MLE. (Under a judge whose hard stack limit is below
# the memory limit, the stack runs out first: RE, with the stack-overflow hint; tests/test_verdicts.py.)
# From Python 3.12 the interpreter stops recursion through C itself, whatever the recursion limit
# (its C budget: 499 levels of this on 3.12.1, 3,333 on 3.13.0), with the stack far from full: a
# RecursionError, RE, as `python3 solution.py` gives there (docs/verdicts.md, "Python versions").
import functools
import sys

sys.setrecursionlimit(10**8)


@functools.lru_cache(maxsize=None)
def steps(k):
    return 0 if k == 0 else 1 + steps(k - 1)


class Adder:
    def add(self, values, factor):
        return steps(10**7)
