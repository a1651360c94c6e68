"""Process plumbing that both the zygote and its forked children use (standard library only)."""

from __future__ import annotations

import _thread
import ctypes
import errno
import os
import signal
import time

from .sandbox._sys import read_whole

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
libc = ctypes.CDLL(None, use_errno=True)
# A CDLL makes a function's object when the function is first named. Named here, in the zygote, every
# child shares it; named first in a forked child, it copied up to ~70 pages there (with _signal in
# child.py: 25 fewer page faults per trivial test, measured over whole runs).
prctl, sched_getcpu, execve = libc.prctl, libc.sched_getcpu, libc.execve

CLONE_PARENT = 0x00008000
SYS_CLONE = {"x86_64": 56, "aarch64": 220, "riscv64": 220}.get(os.uname().machine)  # (arguments all 0 on these)
SYS_SET_ROBUST_LIST, SYS_GET_ROBUST_LIST = {"x86_64": (273, 274)}.get(os.uname().machine, (99, 100))
_syscall6 = ctypes.CFUNCTYPE(*[ctypes.c_long] * 7, use_errno=True)(("syscall", libc))
_before_fork, _after_fork_child, _after_fork_parent = (
    ctypes.pythonapi.PyOS_BeforeFork, ctypes.pythonapi.PyOS_AfterFork_Child, ctypes.pythonapi.PyOS_AfterFork_Parent)


def _clone_parent() -> int:
    """os.fork(), but the new process is a child of our parent (CLONE_PARENT): how the template
    forks a test's child for the zygote to wait for (engine/template.py). The interpreter hears of
    the fork as os.fork tells it, glibc of the new thread id as fork tells it; the caller has one thread."""
    cell = thread_id_cell()
    if cell is None:
        raise OSError(errno.ENOSYS, "glibc's thread id cannot be set in a cloned process")
    head, size = _robust_list()
    _before_fork()
    pid = _syscall6(SYS_CLONE, CLONE_PARENT | signal.SIGCHLD, 0, 0, 0, 0)
    if pid == 0:
        cell.value = os.getpid()  # else pthread_kill, pthread_getcpuclockid (...) name the template's thread
        if head:  # registered again, as glibc's fork does
            _syscall6(SYS_SET_ROBUST_LIST, head, size, 0, 0, 0, 0)
        _after_fork_child()
        return 0
    error = ctypes.get_errno()
    _after_fork_parent()
    if pid < 0:
        raise OSError(error, os.strerror(error))
    return pid


clone_parent = _clone_parent if SYS_CLONE is not None else None
_robust: dict[int, tuple[int, int]] = {}  # per thread: its robust list, which glibc registers once, at its start


def _robust_list() -> tuple[int, int]:
    """The calling thread's list of robust mutexes (head, size), which a new process loses: asked
    once per thread, not at every clone (a ctypes call in the template copies pages)."""
    key = _thread.get_native_id()
    if key not in _robust:
        head, size = ctypes.c_void_p(), ctypes.c_size_t()
        _syscall6(SYS_GET_ROBUST_LIST, 0, ctypes.addressof(head), ctypes.addressof(size), 0, 0, 0)
        _robust[key] = (head.value or 0, size.value)
    return _robust[key]
_thread_id: ctypes.c_int | bool | None = None  # found once per process: thread_id_cell


def thread_id_cell() -> ctypes.c_int | None:
    """Where glibc keeps the calling thread's kernel id (its struct pthread's tid, which its fork
    updates in the new process and a raw clone does not), or None (not glibc?). Found by moving a
    candidate and seeing pthread_getcpuclockid, which computes its clock from that field, follow."""
    global _thread_id
    if _thread_id is None:
        me, tid = _thread.get_ident(), _thread.get_native_id()

        def cached() -> int:
            return ~(time.pthread_getcpuclockid(me) >> 3)  # glibc: clock = ~tid << 3 | 6

        _thread_id = False
        for offset in range(0, 1024, 4) if cached() == tid else ():  # the field lies well within the block
            cell = ctypes.c_int.from_address(me + offset)
            if cell.value == tid:
                cell.value = tid + 1
                moved = cached() == tid + 1
                cell.value = tid
                if moved:
                    _thread_id = cell
                    break
    return _thread_id or None


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
