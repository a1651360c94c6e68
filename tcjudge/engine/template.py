"""The template: a quiet copy of the zygote that forks each test's child, so that the zygote's own
work never writes to pages a live child shares.

Why: after a fork, every page the parent writes while the child lives is copied (copy-on-write).
The zygote runs Python while its children live (it feeds one, watches it, reads its result, speaks
JSON with the judge, forks the next one meanwhile): 226 such copies per trivial test when it forked
them itself. The template's own loop (a request received, a clone, the pid sent) copies 125 per fork,
and the zygote none: measured per trivial test, zygote and template 1.30 ms of CPU against the
zygote's 1.59 alone (benchmarks/overhead.py measures a whole test). The template is forked from the zygote once the state every child
inherits is settled (the solution loaded, its compiled code known); from then on it only waits on
its socket, forks a child when asked, and says which pid. Its children are forked with
CLONE_PARENT, so they are the zygote's own children: the zygote waits for them, reads their
rusage and kills them exactly as before, and the template holds nothing of them.

Zygote side (trusted); standard library only. The child's side is engine/child.py, as for a
child the zygote forks itself (the fallback wherever a template cannot be had).
"""

from __future__ import annotations

import _socket  # (socket's own C module, without socket.py's imports: 5 ms of a zygote's start)
import gc
import os
import signal
import struct

from ..protocol import CRASH_FD
from . import child as child_side
from .processes import clone_parent, die_with_parent, thread_id_cell

PID = struct.Struct("<i")
# A fork request: the child's CPU, whether the template pins itself there, whether a cgroup's join
# files follow (NUL-separated): a fixed layout, where JSON's decoder copied about 20 pages of the
# template per fork (each page the template writes while a child lives is copied)
REQUEST = struct.Struct("<i??")
REPLY_TIMEOUT = 10.0  # seconds for a fork: past it the template is taken for stuck and the zygote forks itself
REQUEST_CAP = 1 << 16  # bytes of one fork request: a cgroup's folders and a CPU
CHANNELS = ("stdin", "stdout", "output", "result", "args", "setup", "crash")


class Templates:
    """The zygote's template for the state its children inherit now, if it can have one."""

    def __init__(self):
        self.current: Template | None = None
        self.usable = True  # False once a template failed: the solution's children are forked by the zygote

    def for_state(self, zygote) -> Template | None:
        """The template for `zygote`'s state, started on first need; None while that state can still
        change (the compiled code not known yet, a load's compile check), for a serving runtime (its
        one child serves every test), or when none can be had."""
        solution = zygote.solution
        if (not self.usable or solution.compile_only or (solution.program is not None and solution.program.serves)
                or (solution.code is not None and not solution.code.settled())):
            return None
        if self.current is None:  # (every load retires the previous solution's)
            self.current = Template.start(zygote)
            self.usable = self.current is not None
        return self.current

    def retire(self, usable: bool = True) -> None:
        """End the current template (a new solution is loaded, the zygote ends, or it failed)."""
        if self.current is not None:
            self.current.close()
            self.current = None
        self.usable = usable

    def pids(self) -> set[int]:
        return set() if self.current is None else {self.current.pid}


class Template:
    """The zygote's handle on its template process."""

    def __init__(self, pid: int, sock):
        self.pid, self._sock = pid, sock

    @classmethod
    def start(cls, zygote) -> Template | None:
        """Fork the template from the zygote as it is now; None if that fails (the zygote forks itself)."""
        if clone_parent is None or thread_id_cell() is None:  # (found here, on the thread the template is forked from)
            return None
        ours, theirs = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_SEQPACKET)
        try:
            pid = os.fork()
        except OSError:
            ours.close()
            theirs.close()
            return None
        if pid == 0:
            try:
                ours.close()
                _serve(theirs, zygote)
            finally:
                os._exit(0)
        theirs.close()
        ours.settimeout(REPLY_TIMEOUT)  # (a timeout is an OSError: the caller forks itself from then on)
        return cls(pid, ours)

    def fork(self, channels: child_side.Channels, joins: tuple[bytes, ...] | None, cpu: int, pinned: bool) -> int:
        """A new child of the zygote set up on these `channels` (in its cgroup: a Slot's `joins`; on `cpu`,
        where the template forks too when the zygote is `pinned` there): its pid. Raises OSError if the
        template is gone or cannot fork."""
        fds = [getattr(channels, name) for name in CHANNELS] + ([channels.code] if channels.code >= 0 else [])
        request = REQUEST.pack(cpu, pinned, bool(joins)) + (b"\0".join(joins) if joins else b"")
        self._sock.sendmsg([request], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, struct.pack(f"{len(fds)}i", *fds))])
        reply = self._sock.recv(PID.size)
        if len(reply) != PID.size:
            raise OSError("the template ended")
        pid = PID.unpack(reply)[0]
        if pid < 0:
            raise OSError(-pid, os.strerror(-pid))
        return pid

    def close(self) -> None:
        """End the template (the zygote reaps it)."""
        self._sock.close()
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass


def _serve(sock, zygote) -> None:
    """In the template: fork a child per request until the zygote closes the socket."""
    die_with_parent(zygote.pid)
    gc.disable()  # what it allocates per request is freed at once; a collection would only copy pages
    keep = {sock.fileno(), zygote.devnull, CRASH_FD, *_confinement_fds(zygote)}
    _close_all_but(keep | {2})  # the judge's pipes (0, 1) and every child's are the zygote's alone
    for fd in range(CRASH_FD):  # 0-5 held, so no received descriptor lands where a child's dup2 goes
        if fd not in keep and fd != 2:
            os.dup2(zygote.devnull, fd)
    pinned = None
    while True:
        try:
            # close-on-exec, as the zygote made them: else the set-up channel, which a compiled child
            # keeps open for its exec to close, outlived the exec (fd 13 in a C program)
            request, ancillary, _, _ = sock.recvmsg(REQUEST_CAP, _socket.CMSG_SPACE(8 * 4), _socket.MSG_CMSG_CLOEXEC)
        except OSError:
            return
        if not request:
            return
        fds = []
        for level, kind, data in ancillary:
            if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
                fds += struct.unpack(f"{len(data) // 4}i", data[:len(data) - len(data) % 4])
        cpu, pin, joined = REQUEST.unpack_from(request)
        if pin and cpu != pinned:  # pinned after this template started: -j N > 1
            os.sched_setaffinity(0, {cpu})
            pinned = cpu
        joins = tuple(request[REQUEST.size:].split(b"\0")) if joined else None
        code = fds[len(CHANNELS)] if len(fds) > len(CHANNELS) else -1
        channels = child_side.Channels(*fds[:len(CHANNELS)], code=code)
        try:
            pid = clone_parent()
        except OSError as err:
            pid = -err.errno
        if pid == 0:
            sock.close()
            gc.enable()  # the template's own setting: a solution's cyclic garbage is collected as under the zygote
            zygote.start_child(channels, joins, cpu)
        for fd in set(fds):
            os.close(fd)
        sock.send(PID.pack(pid))


def _confinement_fds(zygote) -> set[int]:
    held = set()
    for confinement in (zygote.confinement, zygote.solution.confinement if zygote.solution else None):
        if confinement is not None:
            held.update(confinement.keep_fds)
    return held


def _close_all_but(keep: set[int]) -> None:
    start = 0
    for fd in sorted(keep):
        if fd > start:
            os.closerange(start, fd)
        start = fd + 1
    os.closerange(start, 1 << 16)
