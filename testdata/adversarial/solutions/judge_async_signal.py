# expect: WA
# requires: landlock.scope|seccomp
# threat: (5) hurt the judge with signal-driven I/O: make the judge's process group the owner of
#   a pipe (fcntl F_SETOWN), choose SIGKILL as its signal (F_SETSIG), switch on O_ASYNC and write
#   to the pipe: the kernel itself sends the signal, which the seccomp rule for kill() never sees.
#   Where Landlock's signal scope (ABI 6) is missing, that killed the judge.
# why: seccomp denies F_SETOWN, F_SETOWN_EX, F_SETSIG and O_ASYNC (EPERM), and Landlock's scope
#   would drop the signal anyway. It reports -1 (WA); signal-driven I/O set up is a LEAK (RE).
import fcntl
import os
import signal

F_SETSIG = 10


class Vault:
    def open(self, seed):
        judge_group = os.getpgid(os.getppid())  # the worker shares the judge's process group
        read_end, write_end = os.pipe()
        try:
            fcntl.fcntl(read_end, fcntl.F_SETOWN, -judge_group)
            fcntl.fcntl(read_end, F_SETSIG, signal.SIGKILL)
            fcntl.fcntl(read_end, fcntl.F_SETFL, os.O_ASYNC | os.O_NONBLOCK)
        except OSError:
            return -1  # contained
        os.write(write_end, b"x")
        raise RuntimeError(f"LEAK: signal-driven I/O aimed at process group {judge_group}")
