# expect: WA
# requires: seccomp
# threat: (5) hurt the judge through process groups: kill(0, SIGKILL) (its own group, which would
#   include the zygote if the child had not been put in a group of its own), then killpg of the
#   zygote's group (the judge's) and of the group numbered like the zygote.
# why: seccomp allows kill only with the process's own pid: kill(0, ...) and negative pids get
#   EPERM, caught here; the solution returns 0 (WA). (Needs seccomp: with Landlock's scope alone,
#   kill(0) reaches the solution itself and the verdict would be RE, which is harmless.)
import os
import signal


class Vault:
    def open(self, seed):
        delivered = []
        zygote = os.getppid()
        groups = [0, zygote]
        try:
            groups.append(os.getpgid(zygote))
        except OSError:
            pass
        for group in dict.fromkeys(groups):
            try:
                os.killpg(group, signal.SIGKILL)
                delivered.append(group)
            except OSError:
                pass
        if delivered:
            raise RuntimeError(f"LEAK: signalled process groups {delivered}")
        return 0
