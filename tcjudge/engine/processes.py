"""Process plumbing that both the zygote and its forked children use (standard library only)."""

from __future__ import annotations

import ctypes
import os
import signal

from .sandbox._sys import read_whole

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
libc = ctypes.CDLL(None, use_errno=True)
# A CDLL makes a function's object when the function is first named. Named here, in the zygote, every
# child shares it; named first in a forked child, it copied up to ~70 pages there (with _signal in
# child.py: 25 fewer page faults per trivial test, measured over whole runs).
prctl, sched_getcpu, execve = libc.prctl, libc.sched_getcpu, libc.execve


def die_with_parent(parent: int) -> None:
    """SIGKILL this process when `parent` dies, and end it now if `parent` is already gone: a
    parent killed between our fork and the prctl would otherwise leave us running under pid 1."""
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)


def kill_group(pid: int) -> None:
    """SIGKILL a test's process group and its leader (gone or not ours: nothing to do)."""
    for target in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
        try:
            target()
        except (ProcessLookupError, PermissionError):
            pass


def reap_orphans(known: set[int]) -> None:
    """Kill and reap descendants that escaped their test's process group and were re-parented to
    us (every child but the `known` ones, killed already and reaped on their own schedule)."""
    try:
        orphans = [int(pid) for pid in read_whole(f"/proc/self/task/{os.getpid()}/children").split()
                   if int(pid) not in known]
    except OSError:
        orphans = []
    for pid in orphans:
        kill_group(pid)
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
