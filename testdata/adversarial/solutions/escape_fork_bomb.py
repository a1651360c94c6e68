# expect: WA
# threat: (4) a fork bomb (bounded to 64 processes that would each linger 30 s, so that a sandbox
#   failure cannot take the machine down), plus os.system, os.posix_spawn and subprocess.
# why: seccomp denies fork/vfork and clone without CLONE_THREAD with EPERM (and execve with
#   EACCES), so os.fork raises, os.system fails (status 127), posix_spawn and subprocess raise; the
#   solution returns 0 (WA). A process made raises "LEAK" (RE); the suite also checks that no
#   process is left behind.
import os
import subprocess
import time


class Vault:
    def open(self, seed):
        made = []
        for _ in range(64):
            try:
                pid = os.fork()
            except OSError:
                break
            if pid == 0:  # only reached if fork worked
                time.sleep(30)
                os._exit(0)
            made.append(pid)
        if os.system("true # adversarial-marker") == 0:
            made.append("os.system")
        for spawn in (
            lambda: os.posix_spawn("/bin/sleep", ["sleep", "30", "adversarial-marker"], {}),
            lambda: subprocess.Popen(["/bin/sleep", "30", "adversarial-marker"]).pid,
        ):
            try:
                made.append(spawn())
            except OSError:
                pass
        if made:
            raise RuntimeError(f"LEAK: made processes {made}")
        return 0
