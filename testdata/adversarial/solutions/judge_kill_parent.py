# expect: WA
# requires: landlock.scope|seccomp
# threat: (5) hurt the judge: SIGKILL the zygote (os.getppid()) and the judge above it (the
#   zygote's process-group leader), with kill(2) and with pidfd_send_signal.
# why: seccomp allows kill only to the process itself and denies pidfd_open (EPERM); Landlock's
#   signal scope (ABI 6+) denies signals out of the sandbox. Every call raises PermissionError,
#   caught here; the solution returns 0 (WA), and the judge and zygote live on.
# (Skipped when neither layer is active: the signals would really be delivered.)
import os
import signal


class Vault:
    def open(self, seed):
        zygote = os.getppid()
        targets = [zygote]
        try:
            targets.append(os.getpgid(zygote))
        except OSError:
            pass
        delivered = []
        for pid in dict.fromkeys(p for p in targets if p > 1 and p != os.getpid()):
            try:
                os.kill(pid, signal.SIGKILL)
                delivered.append(pid)
            except OSError:
                pass
            try:
                fd = os.pidfd_open(pid)
                signal.pidfd_send_signal(fd, signal.SIGKILL)
                delivered.append(f"pidfd {pid}")
            except OSError:
                pass
        if delivered:
            raise RuntimeError(f"LEAK: signalled {delivered}")
        return 0
