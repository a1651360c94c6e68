"""The compile's own process, the side a submission steers: started by build.run_confined (the judge's
side) as a fresh interpreter, it stays as the compile's supervisor (it dies with the judge, and takes
every process of the compile along), starts the compile's first process in PID and network
namespaces of its own where the kernel allows, and in the compiler's process sets the limits and
Landlock, drops every capability, then execs the compiler. Nothing here runs in the judge's process.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import time

LAUNCH_FAILED = 125  # the launcher could not confine or start the compiler: the judge's fault
PR_SET_PDEATHSIG, PR_SET_CHILD_SUBREAPER = 1, 36
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000


def confine_and_exec(spec_json: str) -> None:
    """In the compile process (a fresh interpreter): the compile's supervisor, which dies with the
    judge and takes every process of the compile along (issue 45: a judge ended by Ctrl-C, SIGTERM or
    SIGKILL during a compile left g++, cc1plus and as running, orphans of init); in its child the
    limits, Landlock, then the compiler. It ends as the compiler did (the same status or signal)."""
    spec = json.loads(spec_json)
    _die_with_the_judge(spec.get("judge"))  # (absent from a judge started before an upgrade on disk)
    bounds = _bounded(spec)
    if _own_namespaces():
        status = _run_in_namespace(spec)
    else:
        status = _wait_for(_start_compiler(spec))
    if bounds is not None:
        bounds.close()
    _end_with(status)


# A compile's processes together, where a cgroup holds them: at most COMPILE_TASKS tasks (threads included:
# a JVM's javac or kotlinc has about 30, rustc one per codegen unit), the compiler's memory limit and
# HELPERS_MIB more, TOGETHER times one process's CPU limit (the assembler and linker beside cc1plus), and
# one process's weight on the CPUs where the cpu controller may be used (cgroup.SCHEDULING).
# Breaker 55a F1: a Haskell source's Template Haskell started 200 busy shells (load 190, for the whole
# 120 s wall bound, then the judge's "machine too busy": IE, no penalty, again and again) and 4 processes
# of 1 GiB each (RLIMIT_DATA bounds each process, not their sum).
COMPILE_TASKS, HELPERS_MIB, TOGETHER, WATCH_EVERY = 128, 512, 1.5, 0.25
# What the compile's folder may hold while it runs (a build's own bound, build.PROGRAM_LIMIT_MIB and PROGRAM_FILES,
# is applied once it ends, to what it left): breaker 56a F3, Template Haskell wrote 721 MiB in 14.5 s, refused only
# at the end; 45 s of CPU and 6 compiles at once could fill the store's disk. Past either, all are killed: CE.
WRITTEN_BYTES, WRITTEN_ENTRIES = 256 << 20, 20_000


class _Bounds:
    """The compile's cgroup, its CPU watched from a thread of the supervisor: past the processes' CPU
    together, every one of them is killed (the compiler's SIGKILL: the judge's CE at its limits). The
    thread starts before the namespaces (a process that unshared its PID namespace can start none) and
    imports nothing once started, so the forks that follow copy no import lock of it."""

    def __init__(self, cgroups, slot, cpu_seconds: float, folder: str):
        import threading

        from tcjudge.engine.sandbox.cgroup import kill_members  # (imported before any fork)

        self.cgroups, self.slot, self.cpu_seconds, self._kill = cgroups, slot, cpu_seconds, kill_members
        self.folder = folder
        self.done = threading.Event()
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        while not self.done.wait(WATCH_EVERY):
            used = self.cgroups.cpu_seconds(self.slot)
            over = (f"the compile's processes together used {used:.1f} s of CPU, more than the "
                    f"{self.cpu_seconds:g} s they may use together") if used is not None and used > self.cpu_seconds \
                else self._written_over()
            if over:
                os.write(1, f"\n({over})\n".encode())
                self._kill(self.slot.dirs[0])
                return

    def _written_over(self) -> str | None:
        """What the compile's folder holds past WRITTEN_BYTES or WRITTEN_ENTRIES, said; None within them."""
        size = entries = 0
        folders = [self.folder]
        while folders:
            try:
                listing = os.scandir(folders.pop())
            except OSError:
                continue
            with listing:
                for entry in listing:
                    entries += 1
                    if entries > WRITTEN_ENTRIES:
                        return f"the compile made more than {WRITTEN_ENTRIES} files and folders"
                    try:
                        if entry.is_dir(follow_symlinks=False):
                            folders.append(entry.path)
                        else:
                            size += entry.stat(follow_symlinks=False).st_blocks * 512
                    except OSError:
                        pass
            if size > WRITTEN_BYTES:
                return f"the compile wrote over {WRITTEN_BYTES >> 20} MiB, more than a compile may write"
        return None

    def close(self) -> None:
        """Kill what is left in it (nothing, after a PID namespace's end), and remove it."""
        self.done.set()
        for _ in range(100):
            self._kill(self.slot.dirs[0])
            if self.cgroups.remove(self.slot):
                break
            time.sleep(0.01)
        self.cgroups.close()


def _bounded(spec: dict) -> _Bounds | None:
    """The compile's own cgroup (spec's "joins": its files the compiler writes itself into), or None
    where there is none to make (no cgroup this user may write: the limits and the supervisor's kill
    are then all there is)."""
    from tcjudge.engine.sandbox.cgroup import PREFIX, Cgroups

    try:
        cgroups, _ = Cgroups.open(f"{PREFIX}{os.getpid()}-compile", scheduling=True)
        if cgroups is None:
            return None
        try:
            slot = cgroups.create(spec["data"] + (HELPERS_MIB << 20), tasks=COMPILE_TASKS)
        except OSError:
            cgroups.close()
            return None
    except OSError:
        return None
    spec["joins"] = [os.fsdecode(path) for path in slot.tree_joins]
    return _Bounds(cgroups, slot, spec["cpu"] * TOGETHER, spec["folder"])


def _start_compiler(spec: dict) -> int:
    compiler = os.fork()
    if compiler == 0:
        try:
            _confine_and_exec(spec)
        except BaseException as err:
            os.write(2, f"{type(err).__name__}: {err}".encode())
        os._exit(LAUNCH_FAILED)
    return compiler


def _own_namespaces() -> bool:
    """Whether this supervisor's next child starts a PID namespace, and a network namespace, of its
    own: when that child (the namespace's first process) ends, the kernel kills every other process
    in it, however it hid (breaker 50d: a chain of forks that each exit at once, and a process whose
    main thread had exited, escaped a scan of /proc), and none has a route anywhere (UDP, netlink).
    As root; elsewhere inside a user namespace, its uid and gid mapped to themselves, where a child
    tried first shows that the kernel lets this user map them (an AppArmor that grants no capability
    in a new user namespace would leave the compiler unmapped). False where the kernel refuses (the
    scan, _kill_descendants, is then all there is)."""
    if os.geteuid() == 0:
        return _unshared(CLONE_NEWPID | CLONE_NEWNET)
    trial = os.fork()
    if trial == 0:
        os._exit(0 if _unshared(CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET) else 1)
    return os.waitstatus_to_exitcode(os.waitpid(trial, 0)[1]) == 0 and _unshared(CLONE_NEWUSER | CLONE_NEWPID |
                                                                                   CLONE_NEWNET)


def _unshared(flags: int) -> bool:
    """Whether this process now has the namespaces `flags` names, a new user namespace's ids mapped."""
    import ctypes

    uid, gid = os.getuid(), os.getgid()
    if ctypes.CDLL(None, use_errno=True).unshare(flags) != 0:
        return False
    if flags & CLONE_NEWUSER:
        try:
            for name, text in (("uid_map", f"{uid} {uid} 1"), ("setgroups", "deny"), ("gid_map", f"{gid} {gid} 1")):
                with open(f"/proc/self/{name}", "w") as handle:
                    handle.write(text)
        except OSError:
            return False  # (the trial child's answer: the supervisor's own never fails after it)
    return True


def _run_in_namespace(spec: dict) -> int:
    """Start the namespace's first process, which starts the compiler, waits for it (reaping the
    orphans adopted meanwhile) and says its wait status on a pipe as it ends: as the namespace's
    init it can neither die of a signal it sends itself nor outlive its compiler by a moment. The
    compiler's wait status (a SIGKILL's where the first process was killed first)."""
    reader, writer = os.pipe()
    init = os.fork()
    if init == 0:
        os.close(reader)
        compiler = _start_compiler(spec)
        while True:
            pid, status = os.wait()
            if pid == compiler:
                break
        os.write(writer, status.to_bytes(4, "little"))
        os._exit(0)  # (the kernel kills every other process of the namespace, and waits for them)
    os.close(writer)
    said = b""
    while chunk := os.read(reader, 4):
        said += chunk
    os.waitpid(init, 0)
    return int.from_bytes(said, "little") if len(said) == 4 else signal.SIGKILL


def _die_with_the_judge(judge: int | None) -> None:
    """When the judge's thread that started this compile dies, however it dies, the process group
    (this supervisor, the compiler, and its helpers, which stay in the group and, orphaned, are
    adopted here) is killed: SIGTERM on the judge's death, caught, kills the group."""
    from tcjudge.engine.sandbox import _sys

    signal.signal(signal.SIGTERM, lambda *_: (_kill_descendants(), os.killpg(0, signal.SIGKILL)))
    _sys.check(_sys.libc().prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), "prctl(PR_SET_CHILD_SUBREAPER)")
    _sys.check(_sys.libc().prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0), "prctl(PR_SET_PDEATHSIG)")
    if judge is not None and os.getppid() != judge:  # the judge died before the prctl
        os.killpg(0, signal.SIGKILL)


def _wait_for(compiler: int) -> int:
    """Wait for the compiler (reaping the helpers adopted meanwhile) and kill what it left: its wait
    status, which this process ends with (_end_with), so the judge reads what the compiler met."""
    while True:
        pid, status = os.wait()
        if pid == compiler:
            break
    _kill_descendants()  # (what left the group: breaker 50c's `setsid sleep` outlived the compile)
    return status


def _end_with(status: int) -> None:
    """End as a process that ended with this wait status did."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if number not in (signal.SIGKILL, signal.SIGSTOP):  # (their handlers cannot be set: EINVAL, which was
            signal.signal(number, signal.SIG_DFL)           # "cannot start the compiler" for a compiler killed)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [number])
        os.kill(os.getpid(), number)
        os._exit(128 + number)  # (a signal whose default is not to end a process: never one that killed it)
    os._exit(os.waitstatus_to_exitcode(status))


def _kill_descendants(rounds: int = 100) -> None:
    """Kill every process below this supervisor, those that left its process group (setsid) too, and
    reap them: each killed one's children are adopted here (a subreaper), killed the next round."""
    me = os.getpid()
    for _ in range(rounds):
        parents = {}
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                try:
                    with open(f"/proc/{entry.name}/stat", "rb") as handle:
                        fields = handle.read().rpartition(b")")[2].split()
                except OSError:  # ended meanwhile
                    continue
                if fields[0] != b"Z":
                    parents[int(entry.name)] = int(fields[1])
        below = {me}
        grown = True  # (a child's pid is not always above its parent's: grown until nothing is added)
        while grown:
            found = {pid for pid, parent in parents.items() if parent in below} - below
            below |= found
            grown = bool(found)
        below.discard(me)
        if not below:
            break
        for pid in below:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.01)  # (a killed process runs on until it is scheduled to die)
        _reap()


def _reap() -> None:
    """Reap the children that have ended (zombies), without waiting for the others."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _confine_and_exec(spec: dict) -> None:
    """In the compiler's process: its cgroup, limits, Landlock, then exec the compiler."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if spec.get("joins"):
        from tcjudge.engine.sandbox.cgroup import Cgroups

        try:
            Cgroups.join(tuple(os.fsencode(path) for path in spec["joins"]))
        except OSError:  # (a user namespace the kernel will not let move it: bounded as before, per process)
            pass
    resource.setrlimit(resource.RLIMIT_CPU, (spec["cpu"], spec["cpu"] + 1))
    resource.setrlimit(resource.RLIMIT_DATA, (spec["data"], spec["data"]))
    resource.setrlimit(resource.RLIMIT_FSIZE, (spec["fsize"], spec["fsize"]))
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)  # (Python ignores it) a file past the limit ends its writer
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))
    _landlock_compiler(spec["readable"], spec["hidden"], spec["folder"], spec.get("builds", []))
    from tcjudge.engine.sandbox import drop_all_capabilities

    drop_all_capabilities()  # (as root: what the compiler runs must not hold the judge's; breaker 50c F6)
    _no_user_namespaces()
    os.execve(spec["argv"][0], spec["argv"], spec["env"])


def _no_user_namespaces() -> None:
    """The compiler's seccomp filter (_seccomp.no_namespaces_program): it makes no user namespace, in
    which it would be the admin of namespaces of its own (breaker 53b F3). Skipped where the kernel has
    no seccomp filters (doctor says so)."""
    import ctypes

    from tcjudge.engine.sandbox import _seccomp, _sys

    arch, _why = _seccomp.availability()
    if arch is None:
        return
    _sys.check(_sys.libc().prctl(_sys.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")
    _instructions, program = _seccomp.compile_program(_seccomp.no_namespaces_program(arch))
    _sys.check(_sys.libc().prctl(_sys.PR_SET_SECCOMP, _seccomp.SECCOMP_MODE_FILTER, ctypes.addressof(program), 0, 0),
               "prctl(PR_SET_SECCOMP)")


def _landlock_compiler(readable: list[str], hidden: list[str], folder: str, builds: list[str]) -> None:
    """Read-only system paths minus the judge's folders, read-only the cache's builds it is given (a
    precompiled header), read-write its build folder and /dev/null; nothing else. Skipped, as everywhere, where the kernel has no Landlock (doctor says so)."""
    from tcjudge.engine.sandbox import _landlock, _sys

    abi, _errata, _why = _landlock.abi_version()
    if abi <= 0:
        return
    ruleset = _landlock.create_ruleset(abi)
    for path in _landlock.beneath_except(readable, hidden):
        _landlock.allow_read(ruleset, path)
    for path in builds:
        _landlock.allow_read(ruleset, path)
    _landlock.allow_read_write(ruleset, folder, abi)
    _landlock.allow_read_write(ruleset, os.devnull, abi)
    _sys.check(_sys.libc().prctl(_sys.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")
    _sys.check(_sys.libc().syscall3(_sys.NR_LANDLOCK_RESTRICT_SELF, ruleset, _landlock.restrict_flags(abi), 0),
               "landlock_restrict_self")
    os.close(ruleset)
