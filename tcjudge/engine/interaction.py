"""An interactive test's other side: the problem's interactor, started by the zygote beside the child.

The interactor is the problem's own code (a Kattis output validator run as an interactor: `argv
input answer feedback_dir [flags]`): trusted, but limited so a bug in it cannot hang or crash the
judge. Its standard input is what the program writes on its standard output, and its standard
output is what the program reads: two pipes, whose only other ends are the program's. It runs in a
process group of its own, on the program's CPU (a ping-pong across CPUs costs several times more),
with the problem's CPU limit and address space (validation_time, validation_memory), files of at
most FEEDBACK_FILE_MIB, SIGPIPE ignored (a program that stops reading makes its writes fail, not
kill it), and the sandbox's layers for trusted code (sandbox/trusted.py: it reads everything, writes
only its feedback folder, no network). Its exit status decides the answer (42 accept, 43 reject);
anything else, a signal (SIGXCPU past its CPU limit), or a failure to start is its fault: IE, never
the program's.

Runs in the zygote (trusted); the run request's "interactor" field carries the spec
(tcjudge.protocol).
"""

from __future__ import annotations

import math
import os
import resource
import select
import signal
import time

from ..protocol import ACCEPTED, NOT_STARTED
from .processes import die_with_parent, kill_group
from .sandbox import trusted

FEEDBACK_FILE_MIB = 1024  # the largest file it may write (judgemessage.txt, nextpass.in): a bug fills no disk


class Interactor:
    """A started interactor: its pid, a pidfd to wait on, and how it ended once it has."""

    def __init__(self, pid: int):
        self.pid = pid
        self.pidfd = os.pidfd_open(pid)
        self.status: int | None = None  # the wait status, once reaped
        self.first = False  # it ended while the program still ran
        self.timed_out = False

    def reap(self, program_running: bool) -> None:
        _, self.status = os.waitpid(self.pid, 0)
        self.first = self.first or program_running
        os.close(self.pidfd)
        self.pidfd = -1

    def program_ended(self) -> None:
        """The program's end has just been seen: if the interactor has already ended or begun to exit,
        its verdict came first. (Its exit closes its pipes before its end shows on the pidfd; on their
        one CPU the program may see the closed pipe, fail on it and end in between: a program killed by
        SIGPIPE after a rejection got that rejection first.)"""
        if self.status is None and _exiting(self.pid):
            self.first = True

    @property
    def accepted(self) -> bool:
        return self.status is not None and os.WIFEXITED(self.status) and os.WEXITSTATUS(self.status) == ACCEPTED

    def wait(self, timeout: float) -> None:
        """After the program has ended: give the interactor `timeout` seconds to decide, then kill it."""
        if self.status is not None:
            return
        deadline = time.monotonic() + timeout
        while self.status is None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.timed_out = True
                kill_group(self.pid)
                self.reap(False)
                return
            if select.select([self.pidfd], [], [], remaining)[0]:
                self.reap(False)

    def facts(self) -> dict:
        """How it ended, for the run's facts (tcjudge.protocol)."""
        status = self.status
        return {
            "exit_code": os.WEXITSTATUS(status) if status is not None and os.WIFEXITED(status) else None,
            "signal": os.WTERMSIG(status) if status is not None and os.WIFSIGNALED(status) else None,
            "first": self.first,
            "timed_out": self.timed_out,
        }

    def discard(self) -> None:
        if self.status is None:
            kill_group(self.pid)
            self.reap(False)


PF_EXITING = 0x4  # the kernel's task flag: do_exit() has begun


def _exiting(pid: int) -> bool:
    """Whether the process has begun to exit or is a zombie (/proc/PID/stat: its state and flags)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rpartition(b")")[2].split()
    except OSError:
        return True
    return fields[0] in (b"Z", b"X") or bool(int(fields[6]) & PF_EXITING)


def spawn(spec: dict, program_stdin: int, program_stdout: int, cpus: set[int], parent: int, devnull: int) -> Interactor:
    """Start the interactor of `spec` ({"argv", "env", "cwd", "feedback", "cpu_limit", "memory_mib"}) with its
    standard output on `program_stdin` and its standard input on `program_stdout` (the zygote's
    ends of the program's pipes, closed here once the interactor holds them)."""
    pid = os.fork()
    if pid == 0:
        try:
            die_with_parent(parent)
            os.setpgid(0, 0)
            os.dup2(program_stdout, 0)
            os.dup2(program_stdin, 1)
            os.dup2(devnull, 2)
            signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # kept across exec: EPIPE, not death
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            cpu = math.ceil(float(spec["cpu_limit"]))
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
            memory = int(spec["memory_mib"]) << 20
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            resource.setrlimit(resource.RLIMIT_FSIZE, (FEEDBACK_FILE_MIB << 20,) * 2)
            os.sched_setaffinity(0, cpus)
            os.closerange(3, 1 << 16)
            os.chdir(spec["cwd"])
            trusted.confine(spec["feedback"])
            os.execve(spec["argv"][0], spec["argv"], spec["env"])
        finally:
            os._exit(NOT_STARTED)
    os.close(program_stdin)
    os.close(program_stdout)
    return Interactor(pid)
