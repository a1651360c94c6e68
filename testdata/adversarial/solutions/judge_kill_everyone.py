# expect: WA
# requires: landlock.scope|seccomp
# threat: (5) hurt the judge and the machine: kill(-1, SIGKILL), every process the user may signal
#   (as root: every process on the machine but init).
# why: seccomp allows kill only with the process's own pid (-1 gets EPERM); Landlock's signal scope
#   (ABI 6+) makes every process outside the sandbox unreachable. The call raises PermissionError,
#   caught here; the solution returns 0 (WA).
# (Skipped when neither layer is active: this would kill the machine's processes.)
import os
import signal


class Vault:
    def open(self, seed):
        try:
            os.kill(-1, signal.SIGKILL)
        except OSError:
            return 0
        raise RuntimeError("LEAK: kill(-1, SIGKILL) was accepted")
