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
    if _own_namespaces():
        _end_with(_run_in_namespace(spec))
    compiler = _start_compiler(spec)
    _end_as(compiler)


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


def _end_as(compiler: int) -> None:
    """Wait for the compiler (reaping the helpers adopted meanwhile), then end with its status: a
    signal that killed it kills this process too, so the judge reads what the compiler met."""
    while True:
        pid, status = os.wait()
        if pid == compiler:
            break
    _kill_descendants()  # (what left the group: breaker 50c's `setsid sleep` outlived the compile)
    _end_with(status)


def _end_with(status: int) -> None:
    """End as a process that ended with this wait status did."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        signal.signal(number, signal.SIG_DFL)
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
    """In the compiler's process: limits, Landlock, then exec the compiler."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
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
