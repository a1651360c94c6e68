"""Verdicts, and how the facts of one run (how it ended, what it used, what it said) become one."""

from __future__ import annotations

import enum
import errno
import signal
from dataclasses import dataclass


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


@dataclass(frozen=True)
class RunFacts:
    """What the trusted worker observed about one child process, all from the kernel or the pipes."""

    ended: str  # "returned" (a whole result line), "exited", "signaled", "cpu-limit", "wall-limit"
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

    @classmethod
    def from_message(cls, message: dict) -> RunFacts:
        fields = {name: message[name] for name in cls.__dataclass_fields__ if name in message}
        if fields.get("answer") is not None:
            fields["answer"] = fields["answer"].encode("latin-1")  # the zygote sends bytes as latin-1
        return cls(**fields)

    @property
    def memory_mib(self) -> float:
        return self.peak_rss_kib / 1024


@dataclass(frozen=True)
class Limits:
    time: float  # CPU seconds
    memory_mib: int

    @property
    def wall(self) -> float:
        """Generous wall-clock limit: it only exists to catch solutions that sleep or block."""
        return 2 * self.time + 1


def resource_verdict(facts: RunFacts, limits: Limits) -> tuple[Verdict, str] | None:
    """TLE or MLE when the run went past a limit, whatever else it did; None when it stayed within."""
    if facts.ended == "wall-limit":
        return Verdict.TLE, f"wall-clock limit of {limits.wall:g} s exceeded with {facts.cpu:.2f} s of CPU (sleeping or blocked?)"
    if facts.ended == "cpu-limit" or facts.cpu > limits.time or facts.signal == signal.SIGXCPU:
        return Verdict.TLE, f"CPU time limit of {limits.time:g} s exceeded"
    if facts.memory_mib > limits.memory_mib:
        return Verdict.MLE, f"peak memory {facts.memory_mib:.0f} MiB is over the {limits.memory_mib} MiB limit"
    return None


def failure_verdict(facts: RunFacts, error: dict | None) -> tuple[Verdict, str]:
    """The verdict of a run that did not return a value: an exception, a signal or a premature exit."""
    if error is not None:
        kind = error.get("type", "Exception")
        where = f" (line {error['line']})" if error.get("line") else ""
        text = f"{kind}: {error.get('message', '')}".rstrip(": ") + where
        if kind == "MemoryError" or error.get("errno") == errno.ENOMEM:
            return Verdict.MLE, f"{kind}{where}: the memory limit was reached"
        if kind == "SystemExit":
            return Verdict.RE, f"the solution called exit({error.get('message', '')}){where}"
        return Verdict.RE, text
    if facts.ended == "signaled":
        name = _signal_name(facts.signal)
        if "MemoryError" in facts.output or "out of memory" in facts.output.lower():
            return Verdict.MLE, f"killed by {name} while out of memory"
        hint = " (stack overflow from deep recursion?)" if facts.signal == signal.SIGSEGV else ""
        return Verdict.RE, f"killed by {name}{hint}"
    return Verdict.RE, f"the process exited with status {facts.exit_code} without returning a value"


def _signal_name(number: int | None) -> str:
    try:
        return signal.Signals(number).name
    except (ValueError, TypeError):
        return f"signal {number}"
