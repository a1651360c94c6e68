"""`output_validator`: the problem's own output validator (problem.yaml's output_validator, a
package's output_validator(s)/), run as Kattis runs one; see OutputValidator."""

from __future__ import annotations

import copy
import math
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path

from . import OUTPUT, Comparison

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
    fault of the validator. It is the problem setter's code, trusted like the test data,
    and runs outside the sandbox with a time limit; only its input (the program's output) is hostile.
    A Python file, an executable, or C++ sources (compiled once with g++) are supported.
    """

    TIMEOUT = 60.0  # seconds for one verdict (an interactor's CPU limit too)
    INTERACTOR_MEMORY_MIB = 2048  # its address space
    AFTER_PROGRAM = 10.0  # seconds an interactor has to decide once the program has ended
    ACCEPT, REJECT = 42, 43

    def __init__(self, path: Path, flags: list[str]):
        self.path, self.flags = Path(path).resolve(), list(flags)
        self._prepared: dict = {}  # "command", "build_dir": shared by its copies with other flags
        self._lock = threading.Lock()

    def with_flags(self, flags: list[str]) -> OutputValidator:
        """The same validator (prepared once for both) with a test group's own flags."""
        other = copy.copy(self)
        other.flags = list(flags)
        return other

    def describe(self) -> str:
        return f"output validator {self.path.name}" + (f" {' '.join(self.flags)}" if self.flags else "")

    def judge(self, given: bytes, answer: bytes, output: bytes) -> Comparison:
        command = self.command()
        with tempfile.TemporaryDirectory(prefix="judge-validate-") as scratch:
            folder = Path(scratch)
            (folder / "feedback").mkdir()
            for name, data in (("input", given), ("answer", answer), ("output", output)):
                (folder / name).write_bytes(data)
            with open(folder / "output", "rb") as team_output:
                try:
                    run = subprocess.run([*command, str(folder / "input"), str(folder / "answer"),
                                          str(folder / "feedback") + "/", *self.flags],
                                         stdin=team_output, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                         timeout=self.TIMEOUT, cwd=folder)
                except subprocess.TimeoutExpired:
                    raise ValidatorFailed(f"{self.describe()} took more than {self.TIMEOUT:g} s") from None
                except OSError as err:
                    raise ValidatorFailed(f"{self.describe()} could not start: {err.strerror}") from None
            message = _feedback(folder / "feedback" / "judgemessage.txt")
            score, multiplier = self._score(folder / "feedback", run.returncode == self.ACCEPT)
        if run.returncode == self.ACCEPT:
            return Comparison(True, score=score, multiplier=multiplier)
        if run.returncode == self.REJECT:
            return Comparison(False, message or "rejected by the output validator")
        last = run.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
        detail = _printable(last[0]) if last else ""
        raise ValidatorFailed(f"{self.describe()} exited with status {run.returncode}, not 42 or 43"
                              + (f": {detail}" if detail else ""))

    def _score(self, feedback: Path, accepted: bool) -> tuple[float | None, float | None]:
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
                raise ValidatorFailed(f"{self.describe()} wrote {name} holding {_printable(text)!r}, not a number")
        if len(found) == 2:
            raise ValidatorFailed(f"{self.describe()} wrote both score.txt and score_multiplier.txt")
        return found.get("score.txt"), found.get("score_multiplier.txt")

    @contextmanager
    def interaction(self, given: bytes, answer: bytes):
        """As the interactor of one test: a scratch folder with the test's input, answer and feedback
        folder; yields the interactor's spec for the worker (tcjudge.protocol) and a function that
        reads its judgemessage.txt once it has run. ValidatorFailed when it cannot be prepared."""
        command = self.command()
        with tempfile.TemporaryDirectory(prefix="judge-interact-") as scratch:
            folder = Path(scratch)
            (folder / "feedback").mkdir()
            (folder / "input").write_bytes(given)
            (folder / "answer").write_bytes(answer)
            yield {"argv": [*command, str(folder / "input"), str(folder / "answer"), f"{folder / 'feedback'}/",
                            *self.flags],
                   "env": {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"}, "cwd": scratch,
                   "cpu_limit": self.TIMEOUT, "memory_mib": self.INTERACTOR_MEMORY_MIB,
                   "wall_limit": self.AFTER_PROGRAM}, lambda: _feedback(folder / "feedback" / "judgemessage.txt")

    def command(self) -> list[str]:
        """How to run the validator; C++ is compiled the first time (and once per judge run)."""
        with self._lock:
            if "command" not in self._prepared:
                self._prepared["command"] = self._prepare()
            return self._prepared["command"]

    def _prepare(self) -> list[str]:
        path = self.path
        if path.is_dir():
            if _executable(path / "build"):  # the format's build script: it makes `run`
                return [self._build(path)]
            sources = sorted(path.glob("*.py")) or sorted(p for p in path.iterdir() if p.suffix in CPP_SUFFIXES)
            runner = path / "run"
            if _executable(runner):
                return [str(runner)]
        else:
            sources = [path]
        if len(sources) == 1 and sources[0].suffix == ".py":
            return [sys.executable, str(sources[0])]
        if sources and all(p.suffix in CPP_SUFFIXES for p in sources):
            return [self._compile(sources)]
        if _executable(path):
            return [str(path)]
        raise ValidatorFailed(f"{self.describe()}: not a supported validator (one Python file, C++ sources, an "
                              f"executable, or a folder with a 'run' script)")

    def _build(self, folder: Path) -> str:
        """Copy the validator's folder to a scratch one, run its `build` script there (as the package
        format says: in the folder, before `run`), and return the `run` it made."""
        self._prepared["build_dir"] = build_dir = tempfile.TemporaryDirectory(prefix="judge-validator-build-")
        built = Path(build_dir.name) / folder.name
        shutil.copytree(folder, built, symlinks=True)
        try:
            build = subprocess.run(["./build"], cwd=built, capture_output=True, timeout=300)
        except (OSError, subprocess.TimeoutExpired) as err:
            raise ValidatorFailed(f"{self.describe()}: its build script failed: {err}") from None
        if build.returncode != 0:
            last = build.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
            raise ValidatorFailed(f"{self.describe()}: its build script exited with status {build.returncode}"
                                  + (f": {_printable(last[0])}" if last else ""))
        if not _executable(built / "run"):
            raise ValidatorFailed(f"{self.describe()}: its build script made no executable 'run'")
        return str(built / "run")

    def _compile(self, sources: list[Path]) -> str:
        self._prepared["build_dir"] = build_dir = tempfile.TemporaryDirectory(prefix="judge-validator-build-")
        binary = str(Path(build_dir.name) / "validator")
        command = ["g++", "-O2", "-std=gnu++17", "-I", str(sources[0].parent), "-o", binary, *map(str, sources)]
        try:
            build = subprocess.run(command, capture_output=True, timeout=300)
        except (OSError, subprocess.TimeoutExpired) as err:
            raise ValidatorFailed(f"{self.describe()}: cannot compile with g++: {err}") from None
        if build.returncode != 0:
            first = build.stderr.decode("utf-8", "replace").strip().splitlines()[:1]
            raise ValidatorFailed(f"{self.describe()}: g++ failed: {_printable(first[0] if first else '')}")
        return binary


CPP_SUFFIXES = (".cpp", ".cc", ".cxx")


def _executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def _feedback(path: Path) -> str:
    try:
        with open(path, "rb") as handle:
            text = handle.read(4096).decode("utf-8", "replace")
    except OSError:
        return ""
    return _printable(" ".join(text.split()))


def _printable(text: str) -> str:
    """A validator's message in one short line of printable characters (it may echo hostile output)."""
    return "".join(ch if ch.isprintable() else "?" for ch in text)[:200]


def check(given: bytes, expected: bytes, got: bytes, settings: OutputValidator) -> Comparison:
    """The validator's verdict; when it gives none (ValidatorFailed), a judge fault with the reason."""
    try:
        return settings.judge(given, expected, got)
    except ValidatorFailed as err:
        return Comparison(False, str(err), judge_fault=True)
