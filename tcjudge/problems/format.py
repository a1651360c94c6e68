"""What every kind of problem is read into, and the helpers the kinds share to read a folder.

A Problem, its tests (TestCase, with Data for a program's input and answer), the Findings of a load
(every fault, with file and line), the typed reader of problem.yaml's fields, the order of the test
files and the check for duplicate test names. The kinds (method.py, stdio.py, kattis.py) import this
module; it imports none of them. loader.py picks a folder's kind.
"""

from __future__ import annotations

import keyword
import os
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Protocol

from ..errors import JudgeInputError
from ..record import field, record
from ..verdicts import FOLDER_VERDICTS, Verdict
from .tctypes import TCType
from .yamlio import load_sequence

if TYPE_CHECKING:
    from .expectations import Expectation

EXAMPLES_FILE = "examples.yaml"
ORIGINAL_FILES = (EXAMPLES_FILE, "system.yaml")
TEST_SUFFIX = ".yaml"
SAMPLE_FOLDER = "data/sample/"  # a Kattis package's examples
RULE_BUILTINS = {
    f.__name__: f
    for f in (len, sum, min, max, all, any, abs, set, sorted, range, zip, enumerate, list, tuple)
}


@record(frozen=True)
class Parameter:
    name: str
    type: TCType


@record(frozen=True)
class Data:
    """A stdin test's input or answer: inline bytes, or a file read only when the test runs (a
    package's data can be far larger than what is worth holding for a whole run)."""

    inline: bytes | None = None
    path: Path | None = None

    def read(self) -> bytes:
        if self.inline is not None:
            return self.inline
        try:
            return self.path.read_bytes()
        except OSError as err:
            raise JudgeInputError(f"cannot read test data: {err.strerror}", self.path) from None

    def size(self) -> int:
        """Its length in bytes, without reading it (what read() would give; -1: it cannot be read)."""
        if self.inline is not None:
            return len(self.inline)
        try:
            return self.path.stat().st_size
        except OSError:
            return -1


@record(frozen=True)
class TestCase:
    """One test: arguments in call order (already shaped as the solution receives them) and the answer;
    for a stdin problem, the input and the judge's answer instead."""

    name: str
    args: tuple[Any, ...]
    expected: Any
    file: str
    line: int
    note: str = ""
    input: Data | None = None
    answer: Data | None = None
    check: Any = None  # a package test's own answer check, where its group's validator flags differ from the problem's
    scoring: Any = None  # a scoring problem's rule for the test's score (scoring.TestScore)

    @property
    def is_ours(self) -> bool:
        """True for tests we wrote, as opposed to the statement's examples and the original system tests."""
        return self.file not in ORIGINAL_FILES

    @property
    def is_example(self) -> bool:
        return self.file == EXAMPLES_FILE or self.file.startswith(SAMPLE_FOLDER)


class SolutionLanguage(Protocol):
    """What problems/ asks of a solution's language. The languages live on a floor above (languages/):
    whoever makes a Catalog passes them in, by file extension."""

    def classes(self, source: str) -> set[str]:
        """The classes the source declares, found without running or compiling it."""

    def toolchain(self) -> object | None:
        """The compiler or runtime installed here, or None when it is missing."""

    def unsupported(self, path: Path) -> str | None:
        """Why the file is in a dialect the judge does not run (Python 2), else None."""

    def dialect(self, path: Path) -> SolutionLanguage:
        """The language that runs the file: this one, or another its text names (a pypy3 `#!` line)."""


def language_of(path: Path, languages: Mapping[str, Any]) -> Any | None:
    """A solution's language from `languages` (file extension -> language): a file's by its extension;
    a folder's (a multi-file solution, as the Kattis format has them) the one most of its files are in,
    as the format detects it (None when none is, or two tie: the format's "cannot be determined"); then
    the dialect its text names (a pypy3 `#!` line), as problemtools tells Python 2 by its `#!` line.
    Links are not followed; the files themselves are read later, by protocol.read_tree's rules."""
    path = Path(path)
    if not path.is_dir():
        return _dialect(languages.get(path.suffix.lower()), path)
    counted: Counter = Counter()
    for _folder, subfolders, files in os.walk(path):
        subfolders[:] = [name for name in subfolders if not name.startswith(".")]
        counted.update(languages[suffix] for suffix in (Path(name).suffix.lower() for name in files
                                                         if not name.startswith(".")) if suffix in languages)
    ranked = counted.most_common(2)
    if not ranked or (len(ranked) == 2 and ranked[0][1] == ranked[1][1]):
        return None
    return _dialect(ranked[0][0], path)


def _dialect(language: Any | None, path: Path) -> Any | None:
    """The language its text picks among the extension's (a `#!` line naming pypy3: PyPy 3), where the
    language says (languages.Language.dialect)."""
    return language.dialect(path) if language is not None else None


class Kind:
    """A kind of problem: what differs between a TopCoder method problem, a standard-input problem in our
    own folder and a Kattis package. Each kind's module (method.py, stdio.py, kattis.py) subclasses it
    and makes one instance; loader.KINDS lists them, and the loader picks a folder's kind once, when it
    reads problem.yaml. The Problem holds its kind; the rest of the judge asks the kind, never a name."""

    name = ""  # for messages and reprs: "method", "stdin", "kattis", "kattis interactive"
    program = False  # a solution is a whole program reading standard input, not a class whose method is called
    interactive = False  # the program talks with the problem's interactor (Problem.interactor) instead of a file
    multi_pass = False  # a test runs the program up to Problem.passes times, each pass's input from the validator
    answers = False  # a stored or graded folder is a submission of answer files, judged without running (submit-answer)
    out_of_memory = Verdict.MLE  # the verdict for running out of memory (a package's format has no MLE: RE)
    own_format = True  # our own format (format_version, tests/, statement.md, solutions/<slug>/ and the
    #                    proofs validate runs); False for a package read as it is
    test_suffixes: tuple[str, ...] = (TEST_SUFFIX,)  # the files it keeps under tests/ (validate warns about others)

    @property
    def mode(self) -> str:
        """How a solution runs, in the worker's words (its load request): "method", "stdin" or "interactive"."""
        return "interactive" if self.interactive else "stdin" if self.program else "method"

    @property
    def input_label(self) -> str:
        """What a test's input is called where it is shown (reports)."""
        return "input" if self.program else "arguments"

    def claims(self, folder: Path, spec: dict) -> bool:
        """Whether the folder (and its problem.yaml, {} when unreadable) is of this kind."""
        raise NotImplementedError

    def inspect(self, folder: Path, spec: dict, lines: dict[str, int],
                findings: Findings) -> tuple[Problem | None, Findings]:
        """Read the folder into a Problem, every fault recorded in findings (file and line)."""
        raise NotImplementedError

    def signature(self, problem: Problem) -> str:
        """The problem's signature as reports show it."""
        raise NotImplementedError

    def solutions_folder(self, folder: Path, solutions: Path) -> Path:
        """Where the problem in `folder` keeps its stored solutions (ours: `solutions`, solutions/<slug>/)."""
        return solutions

    def stored_solutions(self, folder: Path, solutions: Path, languages: Mapping[str, SolutionLanguage],
                         ) -> tuple[list[tuple[Path, Expectation]], list[Path], dict[Path, str]]:
        """(solution, expectation) for every stored solution of the problem in `folder`, in a stable
        order, the entries left out (a language or layout the judge does not run here), and those left
        out for a fault of their own (path -> why: an expectation that cannot be read). Ours: `solutions` (solutions/<slug>/) holds one folder per
        expected verdict, of files in the `languages` (by file extension)."""
        from .expectations import Expectation  # (here: grading a file asks for no stored solution)

        if not solutions.is_dir():
            return [], [], {}
        found = []
        for entry in sorted(solutions.iterdir()):
            if entry.name.startswith(".") or entry.name == "__pycache__":
                continue
            if entry.is_dir() and entry.name in FOLDER_VERDICTS:
                for path in sorted(p for p in entry.iterdir() if p.suffix in languages):
                    if path.is_symlink() or not path.is_file():  # a link to /dev/zero would be read forever
                        raise JudgeInputError("a stored solution must be a regular file, not a link or device", path)
                    found.append((path, Expectation.of(FOLDER_VERDICTS[entry.name])))
            else:
                known = ", ".join(FOLDER_VERDICTS)
                raise JudgeInputError(f"not an expected-verdict folder (use one of: {known})", entry)
        return found, [], {}

    def expected_score(self, problem: Problem, solution: Path) -> Any:
        """The score a stored solution must get (a scoring.ScoreRange), besides its verdict; None:
        its verdict alone is checked (every kind but a scoring package's)."""
        return None

    def __repr__(self) -> str:
        return f"<{self.name} problems>"


@record
class Problem:
    slug: str
    path: Path
    name: str
    source: str
    class_name: str
    method: str
    parameters: list[Parameter]
    returns: TCType
    time_limit: float = 2.0
    time_limit_from: str = ""  # where the time limit comes from, when not from problem.yaml (reports say it)
    timing: Any = None  # a package's rule to compute a time limit from its submissions (timing.Timing)
    memory_limit: int = 256
    output_limit: int = 64  # MiB of a program's standard output (protocol.ANSWER_CAP at most); more is WA
    checker: tuple[str, ...] = ("exact",)
    double_tolerance: float = 1e-9
    tests: list[TestCase] = field(default_factory=list)
    constraints: dict[str, dict] = field(default_factory=dict)
    rules: list[Rule] = field(default_factory=list)
    check: Any = None  # the answer check (checkers/): a Checker for a method, an OutputCheck for a program
    package: str = ""  # "" for our own folders, else the Kattis package format it was read from
    interactor: Any = None  # an interactive problem's interactor (checkers.output_validator.OutputValidator)
    grading: Any = None  # a scoring problem's test groups (scoring.Grading); None: pass-fail
    passes: int = 1  # a multi-pass problem's most passes per test (limits.validation_passes)
    constants: dict[str, str] = field(default_factory=dict)  # a 2025-09 package's {{name}} -> value (constants.py)
    kind: Kind = field(kw_only=True)  # chosen once, by the loader

    @property
    def time_limit_shown(self) -> str:
        """The time limit in one form wherever it is written: 2 s, 1.5 s (breaker 47c: the server's pages
        wrote a package's as 1.0 s and 2.0 s beside a problem.yaml's 2 s)."""
        return f"{self.time_limit:g} s"

    @property
    def time_limit_text(self) -> str:
        """The time limit, and where it comes from when that is not our own problem.yaml (a package's)."""
        return self.time_limit_shown + (f" ({self.time_limit_from})" if self.time_limit_from else "")

    @property
    def examples(self) -> list[TestCase]:
        return [test for test in self.tests if test.is_example]

    @property
    def signature(self) -> str:
        return self.kind.signature(self)

    def input_problems(self, values: dict[str, Any]) -> list[str]:
        """Why these arguments (plain data by parameter name) are not a valid input, or [] when they are."""
        found = []
        for param in self.parameters:
            mismatch = param.type.mismatch(values[param.name])
            if mismatch:
                found.append(f"argument {param.name}: {mismatch}")
        if found:
            return found
        for param in self.parameters:
            limits = self.constraints.get(param.name, {})
            found += [f"{param.name}: {p}" for p in _constraint_problems(values[param.name], param.type, limits)]
        if found:
            return found
        return [problem for rule in self.rules if (problem := rule.problem(values))]


@record(frozen=True)
class Rule:
    """A cross-field rule from problem.yaml: a Python expression over the parameters."""

    text: str
    message: str
    code: Any
    line: int | None = None

    def problem(self, values: dict[str, Any]) -> str | None:
        try:
            holds = eval(self.code, {"__builtins__": RULE_BUILTINS}, dict(values))  # noqa: S307 - setters' rules
        except Exception as err:  # a rule that cannot be evaluated rejects the input, with the reason
            where = f" at problem.yaml:{self.line}" if self.line else ""
            return f"{self.message} (rule{where} failed: {type(err).__name__}: {err})"
        return None if holds else self.message


class Findings:
    """Every fault found in a problem folder, in the order found: errors stop grading, warnings do not."""

    def __init__(self):
        self.errors: list[JudgeInputError] = []
        self.warnings: list[JudgeInputError] = []

    def error(self, message: str, path: Path | None = None, line: int | None = None) -> None:
        self.errors.append(JudgeInputError(message, path, line))

    def warn(self, message: str, path: Path | None = None, line: int | None = None) -> None:
        self.warnings.append(JudgeInputError(message, path, line))

    def __bool__(self) -> bool:
        return bool(self.errors or self.warnings)


def name_problem(name: object, parameter: bool = False) -> str | None:
    """Why `name` cannot be a class, method (or, with `parameter`, parameter) name in Python, or None.
    A keyword such as `class` or `lambda` is an identifier to str.isidentifier, but no stub using it compiles."""
    if not isinstance(name, str) or not name.isidentifier():
        return f"{name!r} is not a Python identifier"
    if keyword.iskeyword(name):
        return f"{name!r} is a Python keyword"
    if parameter and name == "self":
        return "'self' is the method's own first parameter"
    return None


def did_you_mean(word: str, known) -> str:
    import difflib  # (only when a name is wrong)

    close = difflib.get_close_matches(word, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else f" (known: {', '.join(sorted(known))})"


class SpecReader:
    """Typed access to problem.yaml fields; each complaint names the line of the field and is recorded,
    and the field reads as None (or its default) so that reading goes on."""

    KNOWN: set[str] = set()  # the fields a kind reads (its reader says); any other is an unknown field

    def __init__(self, spec: dict, lines: dict[str, int], path: Path, findings: Findings):
        self.spec, self.lines, self.path, self.findings = spec, lines, path, findings

    def fail(self, key: str, message: str, at: str | None = None) -> None:
        self.findings.error(f"{key}: {message}", self.path, self.lines.get(at or key))

    def _get(self, key: str, default: Any = ...) -> Any:
        if key not in self.spec or self.spec[key] is None:
            if default is ...:
                self.findings.error(f"missing required field '{key}'", self.path)
                return None
            return default
        return self.spec[key]

    def text(self, key: str, default: Any = ...) -> str | None:
        value = self._get(key, default)
        if value is not None and not isinstance(value, str):
            self.fail(key, f"expected text, got {value!r}")
            return None
        return value

    def number(self, key: str, default: float, low: float, high: float) -> float | None:
        value = self._get(key, default)
        if type(value) not in (int, float) or not low <= value <= high:
            self.fail(key, f"expected a number between {low} and {high}, got {value!r}")
            return None
        return value

    def reject_unknown(self) -> None:
        for key in self.spec:
            if key not in self.KNOWN:
                self.fail(str(key), "unknown field" + did_you_mean(str(key), self.KNOWN))


def _constraint_problems(value: Any, tctype: TCType, limits: dict) -> list[str]:
    problems = []
    if "length" in limits and not _within(len(value), limits["length"]):
        problems.append(f"length {len(value)} outside {limits['length']}")
    if "element_length" in limits:
        bad = [i for i, item in enumerate(value) if not _within(len(item), limits["element_length"])]
        if bad:
            problems.append(f"element {bad[0]} has length {len(value[bad[0]])}, outside {limits['element_length']}")
    if "alphabet" in limits:
        strings = value if tctype.dims else [value]
        stray = sorted({ch for s in strings for ch in s} - set(limits["alphabet"]))
        if stray:
            problems.append(f"characters {''.join(stray)!r} outside the alphabet {limits['alphabet']!r}")
    if "range" in limits:
        outside = [n for n in _numbers(value) if not _within(n, limits["range"])]
        if outside:
            problems.append(f"value {outside[0]} outside {limits['range']}")
    return problems


def _numbers(value: Any):
    if isinstance(value, (list, tuple)):
        for item in value:
            yield from _numbers(item)
    else:
        yield value


def _within(number: float, bounds: list) -> bool:
    low, high = bounds
    return low <= number <= high


def test_files(folder: Path, listed: Any, reader: SpecReader, findings: Findings,
                suffixes: tuple[str, ...] = (TEST_SUFFIX,)) -> list[Path]:
    """Test files in run order: as listed in problem.yaml, else examples.yaml first, then by name.
    `suffixes`: what counts as a test file (a stdin problem adds .in)."""
    tests_dir = folder / "tests"
    for stray in sorted(tests_dir.glob("*.yml")):
        findings.error(f"test files end in {TEST_SUFFIX}: {stray.name} would never run (rename it)", stray)
    found = {path for path in tests_dir.glob("*") if path.suffix in suffixes}
    if listed is None:
        return sorted(found, key=lambda p: (p.name != EXAMPLES_FILE, p.name))
    if not isinstance(listed, list) or not all(isinstance(name, str) for name in listed):
        reader.fail("tests", "expected a list of file names under tests/")
        return []
    paths = [tests_dir / name for name in listed]
    for path in paths:
        if not path.is_file():
            reader.fail("tests", f"no such test file: {path}")
    for path in sorted(found - set(paths)):
        reader.fail("tests", f"{path.name} is in tests/ but not listed, so it would never run")
    return [path for path in paths if path.is_file()]


def read_items(path: Path, findings: Findings) -> list:
    """A test file's items; a file that does not read as a YAML list is a finding, not a stop."""
    try:
        return load_sequence(path)
    except JudgeInputError as err:
        findings.errors.append(err)
        return []


def reject_duplicate_names(tests: list[TestCase], tests_dir: Path, findings: Findings) -> None:
    seen: dict[str, TestCase] = {}
    for test in tests:
        if test.name in seen:
            first = seen[test.name]
            findings.error(f"duplicate test name {test.name!r} (first at {first.file}:{first.line})",
                           tests_dir / test.file, test.line)
        else:
            seen[test.name] = test
