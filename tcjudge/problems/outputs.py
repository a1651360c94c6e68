"""Compare a program's output with the judge's answer, token by token, as the Kattis default output
validator does (problemtools' default_validator), with the same flags.

By default tokens are separated by any whitespace, compared case-insensitively, and the amount and
kind of whitespace does not matter. Flags:

  case_sensitive               tokens must match in case too
  space_change_sensitive       whitespace must match byte for byte as well
  float_absolute_tolerance E   a judge token that is a number matches a number within E
  float_relative_tolerance E   ... within E times the judge's value
  float_tolerance E            both of the above

Everything works on bytes: the output is whatever the program wrote, in any encoding, and nothing in
it is interpreted beyond splitting on ASCII whitespace and parsing decimal numbers.
"""

from __future__ import annotations

import math
import itertools
import os
import re
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from .checker import Comparison

FLAG_NAMES = ("case_sensitive", "space_change_sensitive")
TOLERANCE_NAMES = ("float_absolute_tolerance", "float_relative_tolerance", "float_tolerance")
WHITESPACE = re.compile(rb"\s+")
TOKEN_OR_SPACE = re.compile(rb"\s+|\S+")
TOKEN = re.compile(rb"\S+")
DECIMAL = re.compile(rb"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\Z")  # no nan, inf or hex, as Kattis
NEWLINE = b"\n"
SHOWN = 40  # characters of a token shown in a message


@dataclass(frozen=True)
class TokenRules:
    """The default validator's flags, parsed once per problem."""

    case_sensitive: bool = False
    space_change_sensitive: bool = False
    float_absolute: float | None = None
    float_relative: float | None = None

    @classmethod
    def parse(cls, flags: list[str] | str | None) -> TokenRules:
        """From Kattis validator flags ("float_tolerance 1e-6 case_sensitive"); ValueError names the
        first bad flag."""
        words = flags.split() if isinstance(flags, str) else [str(word) for word in flags or []]
        values: dict = {}
        position = 0
        while position < len(words):
            word = words[position]
            if word in FLAG_NAMES:
                values[word] = True
                position += 1
                continue
            if word not in TOLERANCE_NAMES:
                known = ", ".join(FLAG_NAMES + TOLERANCE_NAMES)
                raise ValueError(f"unknown output validator flag {word!r} (known: {known})")
            try:
                tolerance = float(words[position + 1])
            except (IndexError, ValueError):
                raise ValueError(f"{word} needs a number after it") from None
            if not tolerance >= 0 or math.isinf(tolerance):
                raise ValueError(f"{word} must be a finite number >= 0, got {tolerance!r}")
            if word in ("float_absolute_tolerance", "float_tolerance"):
                values["float_absolute"] = tolerance
            if word in ("float_relative_tolerance", "float_tolerance"):
                values["float_relative"] = tolerance
            position += 2
        return cls(**values)

    @property
    def uses_floats(self) -> bool:
        return self.float_absolute is not None or self.float_relative is not None

    def describe(self) -> str:
        parts = ["case-sensitive" if self.case_sensitive else "case-insensitive",
                 "exact whitespace" if self.space_change_sensitive else "any whitespace"]
        if self.float_absolute is not None:
            parts.append(f"numbers within {self.float_absolute:g} absolute")
        if self.float_relative is not None:
            parts.append(f"numbers within {self.float_relative:g} relative")
        return "tokens, " + ", ".join(parts)


def compare_output(answer: bytes, output: bytes, rules: TokenRules = TokenRules()) -> Comparison:
    """AC when `output` matches the judge's `answer` under `rules`; else a message saying where not.

    Memory stays proportional to the output cap, never to the number of tokens: the tokens are
    walked one at a time (64 MiB of two-letter tokens once made lists of 2.6 GiB), after a
    comparison in C that settles an output identical to the answer."""
    if answer == output:
        return Comparison(True)
    pattern = TOKEN_OR_SPACE if rules.space_change_sensitive else TOKEN
    pairs = itertools.zip_longest(pattern.finditer(answer), pattern.finditer(output))
    for index, (want, have) in enumerate(pairs):
        if want is None:
            return Comparison(False, f"token {index + 1}: expected end of output, got {_show(have.group())}")
        if have is None:
            return Comparison(False, f"{_where(answer, want, index)}: expected {_show(want.group())}, got end of output")
        difference = _token_difference(want.group(), have.group(), rules)
        if difference:
            return Comparison(False, f"{_where(answer, want, index)}: {difference}")
    return Comparison(True)


def _where(answer: bytes, match: re.Match, index: int) -> str:
    """'token N (answer line L)': where the index-th token (0-based) of the answer stands."""
    return f"token {index + 1} (answer line {answer.count(NEWLINE, 0, match.start()) + 1})"


def _token_difference(want: bytes, have: bytes, rules: TokenRules) -> str | None:
    if rules.uses_floats and DECIMAL.match(want):
        if not DECIMAL.match(have):
            return f"expected the number {_show(want)}, got {_show(have)}"
        expected, got = float(want), float(have)
        error = abs(got - expected)
        if rules.float_absolute is not None and error <= rules.float_absolute:
            return None
        if rules.float_relative is not None and error <= rules.float_relative * abs(expected):
            return None
        return f"expected {_show(want)}, got {_show(have)} (error {error:.3g})"
    same = want == have if rules.case_sensitive else want.lower() == have.lower()
    return None if same else f"expected {_show(want)}, got {_show(have)}"


def _show(token: bytes) -> str:
    """A token for a message: printable ASCII kept, everything else escaped, long ones cut."""
    text = repr(token[:SHOWN])[1:]  # b'...' -> '...'
    return text[:-1] + "...'" if len(token) > SHOWN else text


class ValidatorFailed(Exception):
    """The problem's own output validator did not give a verdict: a fault of the problem, not of the
    solution (the test is an internal error)."""


class OutputValidator:
    """A problem's own output validator, run as Kattis runs one:

        validator input_file judge_answer_file feedback_dir [flags...] < program_output

    exit status 42 accepts, 43 rejects (with feedback_dir/judgemessage.txt as the message), anything
    else is a fault of the validator. It is the problem setter's code, trusted like the test data,
    and runs outside the sandbox with a time limit; only its input (the program's output) is hostile.
    A Python file, an executable, or C++ sources (compiled once with g++) are supported.
    """

    TIMEOUT = 60.0  # seconds for one verdict
    ACCEPT, REJECT = 42, 43

    def __init__(self, path: Path, flags: list[str]):
        self.path, self.flags = Path(path).resolve(), list(flags)
        self._command: list[str] | None = None
        self._build_dir: tempfile.TemporaryDirectory | None = None
        self._lock = threading.Lock()

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
        if run.returncode == self.ACCEPT:
            return Comparison(True)
        if run.returncode == self.REJECT:
            return Comparison(False, message or "rejected by the output validator")
        last = run.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
        detail = _printable(last[0]) if last else ""
        raise ValidatorFailed(f"{self.describe()} exited with status {run.returncode}, not 42 or 43"
                              + (f": {detail}" if detail else ""))

    def command(self) -> list[str]:
        """How to run the validator; C++ is compiled the first time (and once per judge run)."""
        with self._lock:
            if self._command is None:
                self._command = self._prepare()
            return self._command

    def _prepare(self) -> list[str]:
        path = self.path
        if path.is_dir():
            sources = sorted(path.glob("*.py")) or sorted(p for p in path.iterdir() if p.suffix in CPP_SUFFIXES)
            runner = path / "run"
            if runner.is_file() and os.access(runner, os.X_OK):
                return [str(runner)]
        else:
            sources = [path]
        if len(sources) == 1 and sources[0].suffix == ".py":
            return [sys.executable, str(sources[0])]
        if sources and all(p.suffix in CPP_SUFFIXES for p in sources):
            return [self._compile(sources)]
        if path.is_file() and os.access(path, os.X_OK):
            return [str(path)]
        raise ValidatorFailed(f"{self.describe()}: not a supported validator (one Python file, C++ sources, an "
                              f"executable, or a folder with a 'run' script)")

    def _compile(self, sources: list[Path]) -> str:
        self._build_dir = tempfile.TemporaryDirectory(prefix="judge-validator-build-")
        binary = str(Path(self._build_dir.name) / "validator")
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


def check_output(check, given: bytes, answer: bytes, output: bytes) -> Comparison:
    """Judge one output with a problem's TokenRules or OutputValidator (may raise ValidatorFailed)."""
    if isinstance(check, OutputValidator):
        return check.judge(given, answer, output)
    return compare_output(answer, output, check)
