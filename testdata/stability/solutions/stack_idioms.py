# expect: AC
# The usual "make recursion deep" preamble: unlimited stack rlimit, big thread stack, high recursion
# limit, and the work done in a thread. Plain `python3` runs it; so must the judge.
import resource
import sys
import threading

resource.setrlimit(resource.RLIMIT_STACK, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
sys.setrecursionlimit(1 << 20)
threading.stack_size(1 << 25)


def depth(k):
    return 0 if k == 0 else 1 + depth(k - 1)


class Stability:
    def run(self, n):
        out = []
        worker = threading.Thread(target=lambda: out.append(depth(50_000)))
        worker.start()
        worker.join()
        return 2 * n + 1 + out[0] - 50_000
