"""Problem folders: problem.yaml, the statement and the test files, loaded and validated up front.

Everything a test file says is checked when it is loaded (types, constraints, cross-field rules), so a
mistake in test data is reported with its file and line instead of surfacing as a strange verdict.
`inspect_problem` collects every fault at once (for `judge.py validate`); `load_problem` raises the
first one (for grading, where one clear line is what a user needs).
"""

from __future__ import annotations

import ast
import difflib
import keyword
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..formats import PROBLEM_FORMAT
from ..errors import JudgeInputError
from . import checkers
from .checkers import CUSTOM, VALUE, Checker, custom
from .checkers.custom import CHECKER_FILE
from .tctypes import TCType
from .yamlio import load_mapping, load_sequence

EXAMPLES_FILE = "examples.yaml"
ORIGINAL_FILES = (EXAMPLES_FILE, "system.yaml")
TEST_SUFFIX = ".yaml"
SAMPLE_FOLDER = "data/sample/"  # a Kattis package's examples
RULE_BUILTINS = {
    f.__name__: f
    for f in (len, sum, min, max, all, any, abs, set, sorted, range, zip, enumerate, list, tuple)
}
CONSTRAINT_KEYS = ("length", "alphabet", "range", "element_length")
TEST_KEYS = ("name", "args", "expected", "note")


@dataclass(frozen=True)
class Parameter:
    name: str
    type: TCType


@dataclass(frozen=True)
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


@dataclass(frozen=True)
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

    @property
    def is_ours(self) -> bool:
        """True for tests we wrote, as opposed to the statement's examples and the original system tests."""
        return self.file not in ORIGINAL_FILES

    @property
    def is_example(self) -> bool:
        return self.file == EXAMPLES_FILE or self.file.startswith(SAMPLE_FOLDER)


@dataclass
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
    memory_limit: int = 256
    checker: tuple[str, ...] = ("exact",)
    double_tolerance: float = 1e-9
    tests: list[TestCase] = field(default_factory=list)
    constraints: dict[str, dict] = field(default_factory=dict)
    rules: list[Rule] = field(default_factory=list)
    check: Any = None  # the answer check (checkers/): a Checker for a method, an OutputCheck for a program
    kind: str = "method"  # or "stdin": a program reading standard input (see stdio.py)
    package: str = ""  # "" for our own folders, else the Kattis package format it was read from

    def __post_init__(self):
        if self.check is None and self.kind == "method":
            self.check = Checker(self.returns, self.checker, self.double_tolerance)

    @property
    def examples(self) -> list[TestCase]:
        return [test for test in self.tests if test.is_example]

    @property
    def signature(self) -> str:
        if self.kind == "stdin":
            return "standard input -> standard output"
        params = ", ".join(f"{p.type} {p.name}" for p in self.parameters)
        return f"{self.returns} {self.method}({params})"

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


@dataclass(frozen=True)
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


def load_problem(folder: Path) -> Problem:
    """Load and validate a problem folder; raises JudgeInputError naming the file and line of the first fault."""
    problem, findings = inspect_problem(folder)
    if findings.errors:
        raise findings.errors[0]
    return problem


def inspect_problem(folder: Path) -> tuple[Problem | None, Findings]:
    """Load a problem folder, collecting every error and warning; the problem is None when it cannot
    be built at all (no usable problem.yaml)."""
    folder = Path(folder)
    findings = Findings()
    spec_path = folder / "problem.yaml"
    if not spec_path.is_file():
        findings.error("no problem.yaml here: not a problem folder", folder)
        return None, findings
    try:
        spec, lines = load_mapping(spec_path)
    except JudgeInputError as err:
        findings.errors.append(err)
        return None, findings
    from . import kattis  # a package of the Kattis/ICPC format, read as it is

    if kattis.is_package(folder):
        return kattis.inspect_package(folder, spec, findings)
    if spec.get("format_version", PROBLEM_FORMAT) != PROBLEM_FORMAT:
        findings.error(f"format_version: this judge reads problem format {PROBLEM_FORMAT}, not "
                       f"{spec['format_version']!r} (a newer judge may)", spec_path, lines.get("format_version"))
        return None, findings
    if spec.get("type") == "stdin":
        from .stdio import inspect_stdin_problem  # a standard-input problem has its own layout

        return inspect_stdin_problem(folder, spec, lines, findings)
    reader = SpecReader(spec, lines, spec_path, findings)
    values = {
        "name": reader.text("name"),
        "source": reader.text("source", ""),
        "class_name": reader.identifier("class"),
        "method": reader.identifier("method"),
        "parameters": reader.parameters(),
        "returns": reader.type("returns"),
        "time_limit": reader.number("time_limit", 2.0, low=0.01, high=60),
        "memory_limit": reader.number("memory_limit", 256, low=16, high=16384),
        "checker": reader.checker(),
        "double_tolerance": reader.number("double_tolerance", 1e-9, low=0, high=1),
    }
    reader.reject_unknown()
    if any(value is None for value in values.values()):
        return None, findings  # required fields are missing or unusable: nothing further can be checked
    values["memory_limit"] = int(values["memory_limit"])
    problem = Problem(slug=folder.name, path=folder, **values)
    problem.constraints = reader.constraints(problem.parameters)
    problem.rules = reader.rules(problem.parameters)
    if CUSTOM in problem.checker:
        problem.check = reader.custom_checker(problem)
    for test_file in test_files(folder, spec.get("tests"), reader, findings):
        problem.tests.extend(_load_tests(test_file, problem, findings))
    reject_duplicate_names(problem.tests, folder / "tests", findings)
    if not problem.tests and not findings.errors:
        findings.error("the problem has no tests", folder / "tests")
    return problem, findings


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
    close = difflib.get_close_matches(word, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else f" (known: {', '.join(sorted(known))})"


class SpecReader:
    """Typed access to problem.yaml fields; each complaint names the line of the field and is recorded,
    and the field reads as None (or its default) so that reading goes on."""

    KNOWN = {
        "format_version", "name", "source", "class", "method", "parameters", "returns", "time_limit",
        "memory_limit", "checker", "double_tolerance", "constraints", "rules", "tests",
    }

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

    def identifier(self, key: str) -> str | None:
        value = self.text(key)
        problem = None if value is None else name_problem(value)
        if problem:
            self.fail(key, problem)
            return None
        return value

    def type(self, key: str, value: Any = ..., at: str | None = None) -> TCType | None:
        raw = self._get(key) if value is ... else value
        if raw is None:
            return None
        try:
            return TCType.parse(raw)
        except ValueError as err:
            self.fail(key, str(err), at)
            return None

    def number(self, key: str, default: float, low: float, high: float) -> float | None:
        value = self._get(key, default)
        if type(value) not in (int, float) or not low <= value <= high:
            self.fail(key, f"expected a number between {low} and {high}, got {value!r}")
            return None
        return value

    def checker(self) -> tuple[str, ...] | None:
        raw = self._get("checker", "exact")
        names = (raw,) if isinstance(raw, str) else raw
        if not isinstance(names, (list, tuple)) or not names or not all(isinstance(n, str) for n in names):
            self.fail("checker", f"expected a checker name or a list of names, got {raw!r}")
            return None
        known = checkers.names(VALUE)
        for name in names:
            if name not in known:
                self.fail("checker", f"unknown checker {name!r}{did_you_mean(name, known)}")
                return None
        alone = [name for name in names if not checkers.find(name).COMBINES]
        if alone and len(names) > 1:
            self.fail("checker", f"'{alone[0]}' decides alone; it does not combine with {sorted(set(names) - {alone[0]})}")
            return None
        return tuple(names)

    def custom_checker(self, problem: Problem) -> Checker | None:
        path = problem.path / CHECKER_FILE
        if not path.is_file():
            self.fail("checker", f"'{CUSTOM}' needs {CHECKER_FILE} in the problem folder, with check(args, expected, got)")
            return None
        try:
            check = custom.load(path)
        except Exception as err:  # the setter's file: report it like any other fault in the folder
            self.findings.error(f"cannot load the checker: {type(err).__name__}: {err}", path)
            return None
        return Checker(problem.returns, problem.checker, problem.double_tolerance, check,
                       tuple(p.name for p in problem.parameters))

    def parameters(self) -> list[Parameter] | None:
        raw = self._get("parameters")
        if raw is None:
            return None
        if not isinstance(raw, list) or not raw:
            self.fail("parameters", "expected a non-empty list of {name, type}")
            return None
        params = []
        for index, item in enumerate(raw):
            at = f"parameters.{index}"
            if not isinstance(item, dict) or set(item) != {"name", "type"}:
                self.fail("parameters", f"each parameter needs exactly a name and a type, got {item!r}", at)
                return None
            problem = name_problem(item["name"], parameter=True)
            if problem:
                self.fail("parameters", f"parameter name: {problem}", at)
                return None
            tctype = self.type("parameters", item["type"], at)
            if tctype is None:
                return None
            params.append(Parameter(item["name"], tctype))
        if len({p.name for p in params}) != len(params):
            self.fail("parameters", "parameter names must be unique")
            return None
        return params

    def constraints(self, params: list[Parameter]) -> dict[str, dict]:
        raw = self._get("constraints", {})
        names = [p.name for p in params]
        if not isinstance(raw, dict):
            self.fail("constraints", f"expected a mapping from parameter names ({', '.join(names)})")
            return {}
        found = {}
        for name, limits in raw.items():
            at = f"constraints.{name}"
            if name not in names:
                self.fail("constraints", f"{name!r} is not a parameter{did_you_mean(str(name), names)}", at)
                continue
            if not isinstance(limits, dict):
                self.fail("constraints", f"{name}: expected a mapping of constraints, got {limits!r}", at)
                continue
            for key in [k for k in limits if k not in CONSTRAINT_KEYS]:
                self.fail("constraints", f"{name}: unknown constraint {key!r}{did_you_mean(str(key), CONSTRAINT_KEYS)}",
                          f"{at}.{key}")
            found[name] = {k: v for k, v in limits.items() if k in CONSTRAINT_KEYS and self._bounds_ok(at, k, v)}
        return found

    def _bounds_ok(self, at: str, key: str, value: Any) -> bool:
        if key == "alphabet":
            ok = isinstance(value, str) and value != ""
            expected = "a non-empty string of characters"
        else:
            ok = (isinstance(value, list) and len(value) == 2 and all(type(v) in (int, float) for v in value)
                  and value[0] <= value[1])
            expected = "[low, high] with low <= high"
        if not ok:
            self.fail("constraints", f"{at.split('.', 1)[1]}.{key}: expected {expected}, got {value!r}", f"{at}.{key}")
        return ok

    def rules(self, params: list[Parameter]) -> list[Rule]:
        raw = self._get("rules", [])
        if not isinstance(raw, list):
            self.fail("rules", "expected a list of {check: expression, message: text}")
            return []
        known = {p.name for p in params} | set(RULE_BUILTINS)
        rules = []
        for index, rule in enumerate(raw):
            at = f"rules.{index}"
            if not isinstance(rule, dict) or set(rule) != {"check", "message"} or not all(
                    isinstance(rule[k], str) for k in rule):
                self.fail("rules", f"expected {{check: expression, message: text}}, got {rule!r}", at)
                continue
            try:
                code = compile(rule["check"], "<rule>", "eval")
            except SyntaxError as err:
                self.fail("rules", f"rule {rule['check']!r} is not a Python expression: {err.msg}", at)
                continue
            unknown = [name for name in _free_names(rule["check"]) if name not in known]
            if unknown:
                self.fail("rules", f"rule {rule['check']!r} uses {unknown[0]!r}, which is neither a parameter nor "
                                   f"an allowed builtin{did_you_mean(unknown[0], known)}", at)
                continue
            rules.append(Rule(rule["check"], rule["message"], code, self.lines.get(at)))
        return rules

    def reject_unknown(self) -> None:
        for key in self.spec:
            if key not in self.KNOWN:
                self.fail(str(key), "unknown field" + did_you_mean(str(key), self.KNOWN))


def _free_names(expression: str) -> list[str]:
    """Names an expression reads from outside itself (names bound by comprehensions and lambdas excluded)."""
    tree = ast.parse(expression, mode="eval")
    bound = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    bound |= {arg.arg for node in ast.walk(tree) if isinstance(node, ast.Lambda) for arg in node.args.args}
    loaded = [node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)]
    return [name for name in dict.fromkeys(loaded) if name not in bound]


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


def _load_tests(path: Path, problem: Problem, findings: Findings) -> list[TestCase]:
    tests = []
    for item in read_items(path, findings):
        test = _load_test(item.value, item.line, path, problem, findings)
        if test:
            tests.append(test)
    return tests


def _load_test(case: Any, line: int, path: Path, problem: Problem, findings: Findings) -> TestCase | None:
    names = [p.name for p in problem.parameters]
    if not isinstance(case, dict) or not {"name", "args", "expected"} <= set(case):
        findings.error("a test case needs name, args and expected (and an optional note)", path, line)
        return None
    unknown = [key for key in case if key not in TEST_KEYS]
    if unknown:
        findings.error(f"a test case needs name, args and expected (and an optional note); unknown key "
                       f"{unknown[0]!r}{did_you_mean(str(unknown[0]), TEST_KEYS)}", path, line)
        return None
    name, args = case["name"], case["args"]
    if not isinstance(name, str) or not name:
        findings.error(f"test name must be text, got {name!r}", path, line)
        return None
    if not isinstance(args, dict) or set(args) != set(names):
        got = sorted(args) if isinstance(args, dict) else args
        hint = ""
        if isinstance(args, dict):
            stray = [key for key in args if key not in names]
            hint = did_you_mean(str(stray[0]), names) if stray else ""
        findings.error(f"test {name}: args must name exactly {names}, got {got}{hint}", path, line)
        return None
    mismatch = problem.returns.mismatch(case["expected"])
    violations = problem.input_problems(args)
    if violations and violations[0].startswith("argument "):
        findings.error(f"test {name}: {violations[0]}", path, line)
        return None
    if mismatch:
        findings.error(f"test {name}: expected value: {mismatch}", path, line)
        return None
    if violations:
        findings.error(f"test {name} breaks the constraints: {'; '.join(violations)}", path, line)
        return None
    shaped = tuple(p.type.to_argument(args[p.name]) for p in problem.parameters)
    return TestCase(name, shaped, case["expected"], path.name, line, str(case.get("note") or ""))


def reject_duplicate_names(tests: list[TestCase], tests_dir: Path, findings: Findings) -> None:
    seen: dict[str, TestCase] = {}
    for test in tests:
        if test.name in seen:
            first = seen[test.name]
            findings.error(f"duplicate test name {test.name!r} (first at {first.file}:{first.line})",
                           tests_dir / test.file, test.line)
        else:
            seen[test.name] = test
