"""Verdicts, and how the facts of one run (how it ended, what it used, what it said) become one."""

from __future__ import annotations

import base64
import enum
import errno
import signal

from .protocol import STACK_LIMIT_LINE, Limits
from .record import fields, record


class Verdict(str, enum.Enum):
    AC = "AC"
    WA = "WA"
    TLE = "TLE"
    MLE = "MLE"
    RE = "RE"
    CE = "CE"
    IE = "IE"

    def __str__(self) -> str:
        return self.value


# The folders of solutions/<slug>/ name the verdict a stored solution is expected to get.
FOLDER_VERDICTS = {
    "accepted": Verdict.AC,
    "wrong_answer": Verdict.WA,
    "time_limit_exceeded": Verdict.TLE,
    "memory_limit_exceeded": Verdict.MLE,
    "runtime_error": Verdict.RE,
    "compile_error": Verdict.CE,
}


@record(frozen=True)
class RunFacts:
    """What the trusted worker observed about one child process, all from the kernel or the pipes."""

    ended: str  # "returned" (a whole result line), "exited", "signaled", "cpu-limit", "idle-limit", "overloaded"
    exit_code: int | None
    signal: int | None
    cpu: float  # seconds of CPU, all threads: the kernel's CPU clock of the process, or wait4
    wall: float  # seconds
    peak_rss_kib: int  # resident high-water mark: /proc/<pid>/status VmHWM, or wait4's ru_maxrss
    report: str  # what the child wrote on its result channel (JSON), possibly empty
    report_truncated: bool
    output: str  # the first bytes of what it printed
    setup_error: str | None  # the harness failed to set the child up (never the solution's doing)
    answer: bytes | None = None  # a stdin program's standard output (None for a method)
    answer_truncated: bool = False  # it wrote more than the zygote's ANSWER_CAP
    idle: float = 0.0  # seconds neither running nor waiting for a CPU (as of the worker's last look)
    waited: float = 0.0  # seconds waiting for a CPU (as of the worker's last look)
    oom_killed: bool = False  # the kernel killed it at its memory cgroup's limit (memory of any kind)
    interactor: dict | None = None  # an interactive test's interactor: exit_code, signal, first, timed_out
    crash: str = ""  # what a process killed by a signal said of its crash (protocol: the crash channel)

    @classmethod
    def from_message(cls, message: dict) -> RunFacts:
        given = {name: message[name] for name in fields(cls) if name in message}
        if given.get("answer") is not None:
            given["answer"] = base64.b64decode(given["answer"])  # the zygote sends the bytes as base64
        return cls(**given)

    @property
    def memory_mib(self) -> float:
        return self.peak_rss_kib / 1024


# One precedence for every run (docs/verdicts.md): the first verdict in this list whose facts are
# present decides. IE first only for a test the judge failed to set up; reaching the memory limit
# beats running out of time (a process out of memory often thrashes on until its CPU runs out);
# running out of CPU time beats the machine's overload (CPU spent is a fact whatever the load);
# then failing to run to the end, then what the checker said of the answer (WA, or IE when the
# problem's own checker failed).
PRECEDENCE = ("setup", Verdict.MLE, Verdict.TLE, "overloaded", Verdict.RE, "answer")


def decide(facts: RunFacts, limits: Limits, report: dict | None,
           answer: tuple[Verdict, str] | None = None) -> tuple[Verdict, str] | None:
    """The verdict of one run by PRECEDENCE, from the kernel's facts, the parsed result channel
    (`report`, None when there is none or it is not a whole JSON line) and, when the run returned
    a value or a program ended, the checker's (verdict, message) of it. None: nothing went wrong
    (the caller's AC, or a loaded solution)."""
    found: dict = {}
    if facts.setup_error:
        found["setup"] = (Verdict.IE, f"the judge could not set up the run: {facts.setup_error}")
    memory = _memory_finding(facts, limits, report)
    if memory:
        found[Verdict.MLE] = memory
    if facts.ended == "cpu-limit" or facts.cpu > limits.time or facts.signal == signal.SIGXCPU:
        found[Verdict.TLE] = (Verdict.TLE, f"CPU time limit of {limits.time:g} s exceeded")
    elif facts.ended == "idle-limit":
        found[Verdict.TLE] = (Verdict.TLE, f"idle for {facts.idle:.1f} s with {facts.cpu:.2f} s of CPU (sleeping or "
                                           f"blocked? the limit on time neither running nor waiting for a CPU is {limits.idle:g} s)")
    if facts.ended == "overloaded":
        found["overloaded"] = (Verdict.IE, f"machine overloaded: the test waited {facts.waited:.1f} s for a CPU "
                                           f"and got {facts.cpu:.2f} s; grade it again on a less busy machine")
    failure = _failure_finding(facts, report)
    if failure:
        found[Verdict.RE] = failure
    if answer and answer[0] is not Verdict.AC:
        found["answer"] = answer
    return next((found[key] for key in PRECEDENCE if key in found), None)


def _memory_finding(facts: RunFacts, limits: Limits, report: dict | None) -> tuple[Verdict, str] | None:
    """MLE when the run reached the memory limit at any point: its peak, or the allocation that failed."""
    if facts.memory_mib > limits.memory_mib:
        return Verdict.MLE, f"peak memory {facts.memory_mib:.0f} MiB is over the {limits.memory_mib} MiB limit"
    if report and report.get("kind") == "error":
        kind = report.get("type", "Exception")
        if kind == "MemoryError" or report.get("errno") == errno.ENOMEM:
            where = f" (line {report['line']})" if report.get("line") else ""
            return Verdict.MLE, f"{kind}{where}: the memory limit was reached"
    if facts.oom_killed:
        return Verdict.MLE, f"killed at the memory limit ({limits.memory_mib} MiB, memory of every kind counted)"
    if not report and facts.ended == "exited" and facts.exit_code and _raised_memory_error(facts.output):
        return Verdict.MLE, "MemoryError (its traceback's last line): the memory limit was reached"
    if not report and facts.ended == "signaled" and facts.signal == signal.SIGABRT and _BAD_ALLOC in facts.output:
        return Verdict.MLE, "std::bad_alloc (C++'s runtime said so as it aborted): the memory limit was reached"
    return None


# what libstdc++ prints as an uncaught std::bad_alloc aborts a C++ program (breaker 56d F10: "killed by
# SIGABRT", where every other language's out of memory was said so); forged, it trades an RE for an MLE
_BAD_ALLOC = "terminate called after throwing an instance of 'std::bad_alloc'"


def _raised_memory_error(output: str) -> bool:
    """Whether a program run without our runtime (PyPy 3: breaker 56b F2, RE before) ended as Python
    ends on an uncaught MemoryError: its error output's last line. The program could print that line
    itself; it then trades its own RE for an MLE, a rejection as much."""
    lines = [line for line in output.splitlines() if line.strip()]
    return bool(lines) and (lines[-1] == "MemoryError" or lines[-1].startswith("MemoryError: "))


def _failure_finding(facts: RunFacts, report: dict | None) -> tuple[Verdict, str] | None:
    """RE when the run did not return a value: an exception, a signal, a premature exit, or a
    result channel the judge cannot read. None when it returned, or was stopped at a limit."""
    kind = report.get("kind") if report else None
    if facts.report_truncated:
        return Verdict.RE, "the returned value is larger than the 1 MiB the result channel takes"
    if kind == "error":
        error_type = report.get("type", "Exception")
        where = f" (line {report['line']})" if report.get("line") else ""
        if error_type == "SystemExit":
            return Verdict.RE, f"the solution called exit({report.get('message', '')}){where}"
        return Verdict.RE, f"{error_type}: {report.get('message', '')}".rstrip(": ") + where
    if kind not in (None, "return", "exit", "loaded", "missing"):
        return Verdict.RE, "the solution wrote something unexpected on the judge's result channel"
    if kind is not None or facts.ended in ("cpu-limit", "idle-limit", "overloaded"):
        return None
    if facts.ended == "signaled":
        return Verdict.RE, f"killed by {_signal_name(facts.signal)}{_crash_hint(facts)}"
    if facts.answer is not None:  # a program: it returns no value (breaker 56b F3: it read as a method's)
        return Verdict.RE, f"the program exited with status {facts.exit_code}"
    return Verdict.RE, f"the process exited with status {facts.exit_code} without returning a value"


# CPython's faulthandler writes at most 100 frames of a traceback; up to 3.12 it ends one it cut
# there with the line "  ...", 3.13.0 writes the 100 frames alone (and a traceback exactly 100 deep
# the same: at the cap, "over 100" is what the evidence says).
_CUT_TRACEBACK = "\n  ...\n"
_FRAME_CAP = 100
_FRAME_LINE = '\n  File "'


def _crash_hint(facts: RunFacts) -> str:
    """What the crash evidence supports, as one of the judge's own phrases; "" without evidence.

    The evidence is the solution's to forge (the crash channel is one of its descriptors), so it
    only ever adds a fixed phrase to a death by SIGSEGV that the kernel reported: a forger can call
    its own RE a stack overflow, and nothing more."""
    if facts.signal != signal.SIGSEGV:
        return ""
    if facts.crash == STACK_LIMIT_LINE.decode():
        return " (stack overflow: the stack was at its limit)"
    if facts.crash.startswith("Fatal Python error: Segmentation fault") and (
            _CUT_TRACEBACK in facts.crash or facts.crash.count(_FRAME_LINE) >= _FRAME_CAP):
        return " (stack overflow? it crashed over 100 calls deep)"
    return ""


def _signal_name(number: int | None) -> str:
    try:
        return signal.Signals(number).name
    except (ValueError, TypeError):
        return f"signal {number}"
