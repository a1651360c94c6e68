# expect: WA
# threat: (4) outlive the test: the classic double fork + setsid daemon, which leaves the test's
#   process group and the zygote's watch and would create /tmp/adversarial-canary-daemon 1.5 s later.
# why: seccomp denies fork (and setsid) with EPERM, so the first fork raises, is caught, and the
#   solution returns 0 (WA). The suite waits longer than the daemon's delay, then checks for the
#   canary file and for processes left behind.
import os
import time

CANARY = "/tmp/adversarial-canary-daemon"


class Vault:
    def open(self, seed):
        try:
            pid = os.fork()
        except OSError:
            return 0
        if pid == 0:
            try:
                os.setsid()
            except OSError:
                pass
            try:
                if os.fork() == 0:
                    time.sleep(1.5)
                    with open(CANARY, "w") as handle:
                        handle.write("the daemon outlived its test\n")
            finally:
                os._exit(0)
        raise RuntimeError("LEAK: forked a daemon")
