# The descriptors a Python solution's process holds when its own code runs (tests/test_descriptors.py):
# a method solution's when add is called, a program's when it runs. One line per open descriptor on
# standard error, "fd N KIND ACCESS" (/proc is out of reach under Landlock: every number is probed),
# then a failure (RE), so that the judge keeps what was written.
import fcntl
import os
import stat
import sys

KINDS = ((stat.S_ISFIFO, "pipe"), (stat.S_ISCHR, "device"), (stat.S_ISREG, "file"), (stat.S_ISSOCK, "socket"),
         (stat.S_ISDIR, "folder"))
ACCESS = {os.O_RDONLY: "r", os.O_WRONLY: "w", os.O_RDWR: "rw"}
ACCMODE = getattr(os, "O_ACCMODE", 3)  # (PyPy's os has no O_ACCMODE: the kernel's is 3)


def list_descriptors():
    for fd in range(1 << 16):
        try:
            mode = os.fstat(fd).st_mode
            flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        except OSError:
            continue
        kind = next((name for test, name in KINDS if test(mode)), "other")
        sys.stderr.write(f"fd {fd} {kind} {ACCESS.get(flags & ACCMODE, '?')}\n")
    sys.stderr.flush()
    raise RuntimeError("descriptors listed")


class Adder:
    def add(self, values, factor):
        list_descriptors()


if __name__ == "__main__":
    list_descriptors()
