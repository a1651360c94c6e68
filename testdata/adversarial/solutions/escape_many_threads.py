# expect: WA
# threat: (4) take the machine's tasks: 3,000 Python threads with 32 KiB stacks (small enough
#   that the memory limit does not stop them), all parked. No bound on tasks per test let 5,000
#   through, and a test that exhausts the pid space turns other tests' forks into IE.
# why: each test's tasks are bounded while it runs: pids.max in its own cgroup where the judge
#   may use cgroups, else RLIMIT_NPROC. Thread creation fails ("can't start new thread") after
#   a few dozen; it reports -1 (WA); more than 500 threads would be a LEAK (RE).
import threading


class Vault:
    def open(self, seed):
        threading.stack_size(32 * 1024)
        parked = threading.Event()
        started = 0
        try:
            for _ in range(3000):
                threading.Thread(target=parked.wait, daemon=True).start()
                started += 1
        except RuntimeError:
            pass
        if started > 500:
            raise RuntimeError(f"LEAK: {started} threads in one test")
        return -1
