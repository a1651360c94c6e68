"""`output_validator`: the problem's own output validator (problem.yaml's output_validator, a
package's output_validator(s)/), run as Kattis runs one; see OutputValidator."""

from __future__ import annotations

import copy
import math
import os
import signal
import subprocess
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from . import OUTPUT, Comparison
from ..programs import ProgramFailed, limited, prepare, stderr_tail

APPLIES_TO = OUTPUT


class ValidatorFailed(Exception):
    """The problem's own output validator did not give a verdict: a fault of the problem, not of the
    solution (the test is an internal error)."""


class OutputValidator:
    """A problem's own output validator, run as Kattis runs one:

        validator input_file judge_answer_file feedback_dir [flags...] < program_output

    exit status 42 accepts, 43 rejects (with feedback_dir/judgemessage.txt as the message), anything
    else is a fault of the validator. An acceptance may come with a score: feedback_dir/score.txt, or
    score_multiplier.txt (2025-09); either on a rejection, both, or one that is not a number is a
    fault of the validator. It is the problem setter's code, trusted like the test data, and runs
    outside the sandbox with the package's limits (validation_time: CPU seconds, validation_memory:
    MiB of address space) and an unlimited stack; only its input (the program's output) is hostile. As an interactor it also
    gets the sandbox's layers for trusted code (engine/interaction.py). A Python file, an executable,
    or C++ sources (compiled once with g++) are supported.
    """

    TIMEOUT = 60.0  # CPU seconds for one verdict: the format's default validation_time
    MEMORY_MIB = 2048  # its address space: the format's default validation_memory
    AFTER_PROGRAM = 10.0  # seconds an interactor has to decide once the program has ended
    ACCEPT, REJECT = 42, 43

    def __init__(self, path: Path, flags: list[str], role: str = "output validator",
                 time_limit: float = TIMEOUT, memory_mib: int = MEMORY_MIB):
        self.path, self.flags, self.role = Path(path).resolve(), list(flags), role
        self.time_limit, self.memory_mib = float(time_limit), int(memory_mib)
        self.constants: dict[str, str] = {}  # a 2025-09 package's constants, substituted in its sources
        self._prepared: dict = {}  # "command", "scratch": shared by its copies with other flags
        self._lock = threading.Lock()

    def with_flags(self, flags: list[str]) -> OutputValidator:
        """The same validator (prepared once for both) with a test group's own flags."""
        other = copy.copy(self)
        other.flags = list(flags)
        return other

    def describe(self) -> str:
        return f"{self.role} {self.path.name}" + (f" {' '.join(self.flags)}" if self.flags else "")

    def judge(self, given: bytes, answer: bytes, output: bytes) -> Comparison:
        with self.session(answer) as session:
            return session.judge(given, output)

    @contextmanager
    def session(self, answer: bytes) -> Iterator[Session]:
        """One test's scratch folder (its answer, the input, a feedback folder that outlives each run of
        the validator): a multi-pass test runs the validator once per pass in it."""
        command = self.command()
        with tempfile.TemporaryDirectory(prefix="judge-validate-") as scratch:
            folder = Path(scratch)
            (folder / "feedback").mkdir()
            (folder / "answer").write_bytes(answer)
            yield Session(self, command, folder)

    def command(self) -> list[str]:
        """How to run the validator; C++ is compiled the first time (and once per judge run)."""
        with self._lock:
            if "command" not in self._prepared:
                self._prepared["command"] = self._prepare()
            return self._prepared["command"]

    def _prepare(self) -> list[str]:
        """Made runnable from any layout the formats allow (programs.py), once; its scratch folder
        lives as long as the validator and its copies."""
        try:
            return prepare(self.path, self.describe_program(), self._prepared.setdefault("scratch", []), self.constants)
        except ProgramFailed as err:
            raise ValidatorFailed(str(err)) from None

    def describe_program(self) -> str:
        """The role and the program's path within its package, for a message about the program itself."""
        parent = self.path.parent
        return f"{self.role} {parent.name}/{self.path.name}" if parent.name else f"{self.role} {self.path.name}"

    def run(self, arguments: list[str], cwd: Path, given: bytes | None = None, stdin=None,
            stdout: int | None = subprocess.PIPE) -> tuple[int, bytes, bytes]:
        """Run it under its limits on `given` (or the file `stdin`): (exit status, standard output,
        standard error); ValidatorFailed when it cannot start or passes a limit. The limits are set
        before its exec (programs.limited: its CPU time and memory, an unlimited stack); a wall-clock
        bound of WALL_FACTOR x its CPU limit stops one that sleeps."""
        wall = WALL_FACTOR * self.time_limit + WALL_SLACK
        try:
            process = subprocess.Popen(limited(arguments, self.time_limit, self.memory_mib),
                                       stdin=subprocess.PIPE if given is not None else stdin,
                                       stdout=stdout, stderr=subprocess.PIPE, cwd=cwd)
        except OSError as err:
            raise ValidatorFailed(f"{self.describe()} could not start: {err.strerror}") from None
        with process:
            try:
                out, err = process.communicate(given, timeout=wall)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()
                raise ValidatorFailed(f"{self.describe()} took more than {wall:g} s") from None
        if process.returncode == -signal.SIGXCPU:
            raise ValidatorFailed(f"{self.describe()} used more than its {self.time_limit:g} s of CPU time "
                                  f"(validation_time)")
        return process.returncode, out or b"", err or b""

    def score_files(self, feedback: Path, accepted: bool) -> tuple[float | None, float | None]:
        """score.txt and score_multiplier.txt, read as numbers (None where absent)."""
        found = {}
        for name in ("score.txt", "score_multiplier.txt"):
            path = feedback / name
            if not path.is_file():
                continue
            if not accepted:
                raise ValidatorFailed(f"{self.describe()} rejected the output and wrote {name} (a score is for "
                                      f"accepted outputs only)")
            text = path.read_bytes()[:100].decode("utf-8", "replace").strip()
            try:
                found[name] = float(text)
            except ValueError:
                found[name] = math.nan
            if not math.isfinite(found[name]):
                raise ValidatorFailed(f"{self.describe()} wrote {name} holding {printable(text)!r}, not a number")
        if len(found) == 2:
            raise ValidatorFailed(f"{self.describe()} wrote both score.txt and score_multiplier.txt")
        return found.get("score.txt"), found.get("score_multiplier.txt")


class Session:
    """The validator's runs on one test, in one scratch folder: `input` (this pass's input), `answer`,
    and `feedback/`, which persists from one run to the next (the format's multi-pass rule)."""

    NEXT_PASS = "nextpass.in"

    def __init__(self, validator: OutputValidator, command: list[str], folder: Path):
        self.validator, self.command, self.folder = validator, command, folder
        self.feedback = folder / "feedback"
        self.status: int | None = None  # the exit status of the validator's last run by judge()

    def arguments(self) -> list[str]:
        folder = self.folder
        return [*self.command, str(folder / "input"), str(folder / "answer"), f"{self.feedback}/", *self.validator.flags]

    def judge(self, given: bytes, output: bytes) -> Comparison:
        """The validator's verdict on `output` for the input `given`."""
        folder, describe = self.folder, self.validator.describe()
        self.status = None
        (folder / "input").write_bytes(given)
        (folder / "output").write_bytes(output)
        with open(folder / "output", "rb") as team_output:
            status, _, stderr = self.validator.run(self.arguments(), folder, stdin=team_output, stdout=subprocess.DEVNULL)
        self.status = status
        verdict = self.verdict(status)
        if verdict is not None:
            return verdict
        detail = stderr_tail(stderr)
        raise ValidatorFailed(f"{describe} exited with status {status}, not 42 or 43"
                              + (f": {detail}" if detail else ""))

    def verdict(self, status: int | None) -> Comparison | None:
        """What an exit status and the feedback folder say: accepted (with its score files), rejected
        (with its judgemessage), or None for any other status. ValidatorFailed on score files the
        format forbids."""
        score, multiplier = self.validator.score_files(self.feedback, status == OutputValidator.ACCEPT)
        if status == OutputValidator.ACCEPT:
            return Comparison(True, score=score, multiplier=multiplier)
        if status == OutputValidator.REJECT:
            return Comparison(False, self.message() or f"rejected by the {self.validator.role}")
        return None

    def check(self, given: bytes, output: bytes) -> Comparison:
        """judge(), where a validator that gives no verdict is a judge fault (IE) instead of raised."""
        try:
            return self.judge(given, output)
        except ValidatorFailed as err:
            return Comparison(False, str(err), judge_fault=True)

    def interaction(self, given: bytes) -> dict:
        """The spec (tcjudge.protocol) for running the validator as the interactor on the input `given`."""
        (self.folder / "input").write_bytes(given)
        return {"argv": self.arguments(), "env": {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"},
                "cwd": str(self.folder), "feedback": str(self.feedback), "cpu_limit": self.validator.time_limit,
                "memory_mib": self.validator.memory_mib, "wall_limit": self.validator.AFTER_PROGRAM,
                "stderr": str(self.folder / self.STDERR)}

    STDERR = "interactor.stderr"  # the interactor's standard error, beside the feedback folder

    def message(self) -> str:
        return _feedback(self.feedback / "judgemessage.txt")

    def stderr_tail(self) -> str:
        """The last lines the interactor wrote on its standard error (for an IE's message)."""
        try:
            with open(self.folder / self.STDERR, "rb") as handle:
                handle.seek(max(0, handle.seek(0, os.SEEK_END) - 4096))
                return stderr_tail(handle.read())
        except OSError:
            return ""

    def replay(self, given: bytes, program_output: bytes) -> tuple[int, bytes]:
        """The validator as the interactor against a recorded dialogue (a sample's .interaction): the
        program's side all at once on its standard input; (its exit status, what it wrote)."""
        (self.folder / "input").write_bytes(given)
        status, written, _ = self.validator.run(self.arguments(), self.folder, given=program_output)
        return status, written

    def next_pass(self) -> bytes | None:
        """The input the validator wrote for another pass (feedback/nextpass.in), taken out of the
        feedback folder (the format removes it before the next pass); None when it wrote none."""
        path = self.feedback / self.NEXT_PASS
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as err:
            raise ValidatorFailed(f"{self.validator.describe()}: cannot read its {self.NEXT_PASS}: {err.strerror}") from None
        path.unlink()
        return data


WALL_FACTOR, WALL_SLACK = 2, 10.0  # a validator's wall-clock bound: twice its CPU limit and 10 s (a busy machine)


def _feedback(path: Path) -> str:
    try:
        with open(path, "rb") as handle:
            text = handle.read(4096).decode("utf-8", "replace")
    except OSError:
        return ""
    return printable(" ".join(text.split()))


def printable(text: str) -> str:
    """A validator's message in one short line of printable characters (it may echo hostile output)."""
    return "".join(ch if ch.isprintable() else "?" for ch in text)[:200]


def check(given: bytes, expected: bytes, got: bytes, settings: OutputValidator) -> Comparison:
    """The validator's verdict; when it gives none (ValidatorFailed), a judge fault with the reason."""
    try:
        return settings.judge(given, expected, got)
    except ValidatorFailed as err:
        return Comparison(False, str(err), judge_fault=True)
