# expect: WA
# threat: (1) look for descriptors inherited from the zygote or the judge (its request pipe, a test
#   file, a log): list /proc/self/fd, probe every descriptor 3..255 with fstat, and read from any
#   readable one; also read stdin.
# why: the zygote's child dup2s /dev/null on 0, its capped pipes on 1, 2 and 3 (write ends) and
#   the crash pipe on 5 (write end), and closes everything else from 4 up before confinement;
#   /proc is unreadable under Landlock. So only 0-3 and 5 are open, stdin gives no bytes and 1-3
#   and 5 cannot be read: the solution returns 0 (WA). An extra descriptor or any byte read raises
#   "LEAK" (RE).
import os


class Vault:
    def open(self, seed):
        problems = []
        try:
            listed = os.listdir("/proc/self/fd")  # (includes the descriptor listdir itself opened)
        except OSError:
            listed = []
        for fd in range(0, 256):
            try:
                os.fstat(fd)
            except OSError:
                continue
            if fd > 3 and fd != 5:
                problems.append(f"descriptor {fd} is open (/proc/self/fd lists {listed})")
            try:
                os.set_blocking(fd, False)
                data = os.read(fd, 4096)
            except OSError:
                continue
            if data:
                problems.append(f"read {len(data)} bytes from descriptor {fd}")
        if problems:
            raise RuntimeError("LEAK: " + "; ".join(problems))
        return 0
