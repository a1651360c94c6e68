"""A test that may be a tree of processes, seen from the zygote: a package's runner that forks the
submission's code into a child it talks to (docs/security.md, "Process trees"). The whole tree's CPU
time is the test's, its processes are watched for idleness as one, and all of them end with it.

Zygote side (trusted): the figures come from the kernel, the test's cgroup (its CPU account, its
processes) or, without one, /proc; never from what a process of the tree says. Imports nothing of the
judge but the sandbox's helpers and engine/processes.py.
"""

from __future__ import annotations

import os
import time

from .processes import kill_group
from .sandbox._sys import read_whole

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")  # the unit of /proc/<pid>/stat's times


def bounded(requested: bool, cgroups) -> bool:
    """Whether a test may be a tree here: asked for, and in a cgroup of its own: pids.max bounds its
    processes, memory.max all their memory, and what is left of it when its zygote is killed is found
    there and killed (cgroup.sweep). Without one, fork stays denied: RLIMIT_NPROC counts per uid (and
    never binds uid 0), RLIMIT_DATA per process, and nothing would record a tree that outlived its
    zygote (docs/security.md, "Process trees")."""
    return requested and cgroups is not None


class Tree:
    """The processes of one test whose first process is `pid` (CPU clock `clock`), in `slot` of
    `cgroups` (both None without cgroups). `last`: the CPU time last read, never less than before."""

    __slots__ = ("pid", "clock", "cgroups", "slot", "last")

    def __init__(self, pid: int, clock: int, cgroups=None, slot=None):
        self.pid, self.clock, self.cgroups, self.slot = pid, clock, cgroups, slot
        self.last = 0.0

    def cpu(self) -> float:
        """Seconds of CPU the whole tree has used: its cgroup's account (every process, ended ones too),
        else, from /proc, its live processes' own times and what each has reaped of its children's."""
        used = self.cgroups.cpu_seconds(self.slot) if self.slot is not None else None
        self.last = max(self.last, self._walked_cpu() if used is None else used)
        return self.last

    def pids(self) -> list[int]:
        """Its processes now: its cgroup's, else the first process and its descendants."""
        return (self.cgroups.procs(self.slot) if self.slot is not None else []) or self._walk()

    def stop(self) -> None:
        """At the test's end: its CPU read a last time, then every process of it killed (its process
        group, which none can leave: seccomp denies setsid and setpgid)."""
        self.cpu()
        kill_group(self.pid)

    def _walk(self) -> list[int]:
        """The first process and its descendants, by the kernel's lists of each thread's children."""
        found, queue = [], [self.pid]
        while queue:
            pid = queue.pop()
            found.append(pid)
            for tid in _listdir(f"/proc/{pid}/task"):
                try:
                    queue += [int(child) for child in read_whole(f"/proc/{pid}/task/{tid}/children").split()]
                except (OSError, ValueError):
                    pass
        return found

    def _walked_cpu(self) -> float:
        """The tree's CPU from /proc: a process whose parent ended before it is no longer seen (it is
        killed with the group at the end); the first process's own time from its clock."""
        total = 0.0
        for pid in self._walk():
            times = _times(pid)
            if times is None:
                continue
            own, reaped = times
            if pid == self.pid:
                try:
                    own = time.clock_gettime(self.clock) * CLOCK_TICKS
                except OSError:
                    pass
            total += (own + reaped) / CLOCK_TICKS
        return total


def _times(pid: int) -> tuple[float, float] | None:
    """(its own user + system time, its reaped children's), in clock ticks, from /proc/<pid>/stat."""
    try:
        fields = read_whole(f"/proc/{pid}/stat").rpartition(b")")[2].split()
        return float(int(fields[11]) + int(fields[12])), float(int(fields[13]) + int(fields[14]))
    except (OSError, ValueError, IndexError):
        return None


def _listdir(path: str) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []
