"""An interactive test's other side: the problem's interactor, started by the zygote beside the child.

The interactor is the problem's own code (a Kattis output validator run as an interactor: `argv
input answer feedback_dir [flags]`): trusted, but limited so a bug in it cannot hang or crash the
judge. Its standard input is what the program writes on its standard output, and its standard
output is what the program reads: two pipes. The zygote holds the program's ends of both too, as
problemtools' runner and BAPCtools' relay do: the interactor sees the end of the program's output
when the program has ended (not when it closes its output and goes on: its own end then comes first,
RE or TLE, as those tools judge it), and its writes never fail for want of a reader (after the
program has ended they are read and dropped here: a Python interactor whose last flush fails exits
120 whatever it decided). Its standard error goes to a file the judge reads for an IE's message. It runs in a
process group of its own, on the program's CPU (a ping-pong across CPUs costs several times more),
with the problem's CPU limit and address space (validation_time, validation_memory), an unlimited
stack (as problemtools runs every program: a deep recursion needs no more than memory), files of at
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
import signal
import time

from ..protocol import ACCEPTED, NOT_STARTED, ready_to_read
from .processes import die_with_parent, kill_group
from .sandbox import trusted

FEEDBACK_FILE_MIB = 1024  # the largest file it may write (judgemessage.txt, nextpass.in): a bug fills no disk


class Interactor:
    """A started interactor: its pid, a pidfd to wait on, and how it ended once it has."""

    def __init__(self, pid: int, program_input: int = -1, program_output: int = -1):
        self.pid = pid
        self.pidfd = os.pidfd_open(pid)
        self.status: int | None = None  # the wait status, once reaped
        self.first = False  # it ended while the program still ran
        self.timed_out = False
        # the program's ends held here: the read end of its input, the write end of its output
        self.program_input, self.program_output = program_input, program_output

    def reap(self, program_running: bool) -> None:
        _, self.status = os.waitpid(self.pid, 0)
        self.first = self.first or program_running
        os.close(self.pidfd)
        self.pidfd = -1
        self.release_output()
        if self.program_input >= 0:
            os.close(self.program_input)
            self.program_input = -1

    def release_output(self) -> None:
        """Let go of the program's output: once the program has ended, the interactor reads its end."""
        if self.program_output >= 0:
            os.close(self.program_output)
            self.program_output = -1

    def program_ended(self) -> None:
        """The program's end has just been seen: if the interactor has already ended or begun to exit,
        its verdict came first. (Its exit closes its pipes before its end shows on the pidfd; on their
        one CPU the program may see the closed pipe, fail on it and end in between: a program killed by
        SIGPIPE after a rejection got that rejection first.) Then the interactor may see the end of
        the program's output."""
        if self.status is None and _exiting(self.pid):
            self.first = True
        self.release_output()

    @property
    def accepted(self) -> bool:
        return self.status is not None and os.WIFEXITED(self.status) and os.WEXITSTATUS(self.status) == ACCEPTED

    def wait(self, timeout: float) -> None:
        """After the program has ended: give the interactor `timeout` seconds to decide, then kill it;
        what it still writes for the program meanwhile is read and dropped."""
        self.release_output()
        if self.status is not None:
            return
        deadline = time.monotonic() + timeout
        if self.program_input >= 0:
            os.set_blocking(self.program_input, False)
        while self.status is None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.timed_out = True
                kill_group(self.pid)
                self.reap(False)
                return
            watched = [self.pidfd] + ([self.program_input] if self.program_input >= 0 else [])
            ready = ready_to_read(watched, remaining)
            if self.program_input in ready:
                self._drop_written()
            if self.pidfd in ready:
                self.reap(False)

    def _drop_written(self) -> None:
        try:
            while os.read(self.program_input, 1 << 16):
                pass
        except BlockingIOError:
            return
        os.close(self.program_input)  # the end of it: no writer is left
        self.program_input = -1

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


def spawn(spec: dict, pipes: tuple[int, int, int, int], cpus: set[int], parent: int, devnull: int) -> Interactor:
    """Start the interactor of `spec` ({"argv", "env", "cwd", "feedback", "cpu_limit", "memory_mib", and
    "stderr": the file its standard error goes to, else nowhere}). `pipes`: the write end of the
    program's input and the read end of its output (the interactor's standard output and input,
    closed here once it holds them), then the program's own ends, which the Interactor holds."""
    program_stdin, program_stdout, program_input, program_output = pipes
    pid = os.fork()
    if pid == 0:
        try:
            die_with_parent(parent)
            os.setpgid(0, 0)
            os.dup2(program_stdout, 0)
            os.dup2(program_stdin, 1)
            stderr = spec.get("stderr")
            os.dup2(os.open(stderr, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600) if stderr else devnull, 2)
            signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # kept across exec: EPIPE, not death
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            cpu = math.ceil(float(spec["cpu_limit"]))
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
            memory = int(spec["memory_mib"]) << 20
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            stack = resource.getrlimit(resource.RLIMIT_STACK)[1]  # unlimited where the judge may: as problemtools
            resource.setrlimit(resource.RLIMIT_STACK, (stack, stack))
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
    return Interactor(pid, program_input, program_output)
