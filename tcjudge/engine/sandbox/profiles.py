"""What a language runtime needs beyond the default policy: one profile per kind of child.

The default (PYTHON) is the strictest: a Python solution needs no program of its own, no
executable memory it writes itself, no stack-like mappings and no signal-driven I/O. Each field
relaxes exactly one denial of the seccomp filter, for runtimes that need it; every other layer
(Landlock, no_new_privs, the rest of the filter, rlimits, cgroups) stays the same. docs/security.md
says what each relaxation reopens and what still bounds it.
"""

from __future__ import annotations

from collections import namedtuple


class Profile(namedtuple("Profile", "name exec executable_memory growsdown async_signals processes own_scheduling",
                         defaults=(False, False, False, False, False, False))):
    """A profile's name and what it relaxes (each False by default):

    exec: execve/execveat allowed: the child replaces itself with a prepared program (a compiled
    solution, the java launcher). fork/clone of processes stays denied, so it is still one process;
    no_new_privs, Landlock (EXECUTE only beneath granted paths) and this filter survive the exec.

    executable_memory: PROT_EXEC on anonymous or writable memory (mmap, mprotect, pkey_mprotect): a
    JIT compiler. Denied otherwise, so no machine code can be written and run: no raw clone()
    threads or syscalls from hand-made code beyond what ctypes can reach through existing functions.

    growsdown: mmap with MAP_GROWSDOWN: such "stack" mappings are not counted by RLIMIT_DATA, so
    without a memory cgroup they hold memory past the limit.

    async_signals: fcntl F_SETOWN, F_SETOWN_EX, F_SETSIG and O_ASYNC via F_SETFL: signal-driven I/O,
    which can deliver a signal to another process (the judge) where Landlock's signal scope (ABI 6)
    is missing.

    processes: fork, vfork and a clone of a process allowed, so a test may be a tree of processes (a
    package's runner that forks the submission's code into a child it talks to: docs/security.md,
    "Process trees"). Never setsid or setpgid (the tree stays in the test's process group, which the
    engine kills), nor a clone that makes a sibling of the caller (CLONE_PARENT) or a namespace; signals
    to any process of the tree (kill, tgkill with a pid above 0) only where Landlock's signal scope
    (ABI 6) keeps them within the test, else to the first process alone. The engine gives it only in a
    test's cgroup (pids.max, memory.max, CPU accounting, and its processes found when its zygote is gone).

    own_scheduling: sched_setscheduler and sched_setparam succeed without doing anything, where they
    are refused (EPERM): a runtime that sets its own threads' policy and, refused, prints a warning on
    standard output (mono). Nothing changes for any process, so nothing is reopened.

    (A named tuple, not a dataclass, on the zygote's side: see protocol.Limits.)"""

    __slots__ = ()


PYTHON = Profile("python")
NATIVE = Profile("native", exec=True)  # a compiled binary: one execve of it, no JIT, no fork
JVM = Profile("jvm", exec=True, executable_memory=True)  # the java launcher, then HotSpot's JIT
RUST = Profile("rust", exec=True)
GO = Profile("go", exec=True)
HASKELL = Profile("haskell", exec=True)
MONO = Profile("mono", exec=True, executable_memory=True, own_scheduling=True)
NODE = Profile("node", exec=True, executable_memory=True)
PYPY = Profile("pypy", exec=True, executable_memory=True)
RUBY = Profile("ruby", exec=True)
PROFILES = {profile.name: profile for profile in (PYTHON, NATIVE, JVM, RUST, GO, HASKELL, MONO, NODE, PYPY, RUBY)}
