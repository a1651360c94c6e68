"""Problem folders: problem.yaml, the statement and the test files, loaded and validated up front.

Everything a test file says is checked when it is loaded (types, constraints, cross-field rules), so a
mistake in test data is reported with its file and line instead of surfacing as a strange verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import JudgeInputError
from .tctypes import TCType
from .yamlio import load_mapping, load_sequence

EXAMPLES_FILE = "examples.yaml"
ORIGINAL_FILES = (EXAMPLES_FILE, "system.yaml")
RULE_BUILTINS = {
    f.__name__: f
    for f in (len, sum, min, max, all, any, abs, set, sorted, range, zip, enumerate, list, tuple)
}


@dataclass(frozen=True)
class Parameter:
    name: str
    type: TCType


@dataclass(frozen=True)
class TestCase:
    """One test: arguments in call order (already shaped as the solution receives them) and the answer."""

    name: str
    args: tuple[Any, ...]
    expected: Any
    file: str
    line: int
    note: str = ""

    @property
    def is_ours(self) -> bool:
        """True for tests we wrote, as opposed to the statement's examples and the original system tests."""
        return self.file not in ORIGINAL_FILES


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
    checker: str = "exact"
    double_tolerance: float = 1e-9
    tests: list[TestCase] = field(default_factory=list)

    @property
    def examples(self) -> list[TestCase]:
        return [test for test in self.tests if test.file == EXAMPLES_FILE]

    @property
    def signature(self) -> str:
        params = ", ".join(f"{p.type} {p.name}" for p in self.parameters)
        return f"{self.returns} {self.method}({params})"


def load_problem(folder: Path) -> Problem:
    """Load and validate a problem folder; raises JudgeInputError naming the file and line of any fault."""
    folder = Path(folder)
    spec_path = folder / "problem.yaml"
    if not spec_path.is_file():
        raise JudgeInputError("no problem.yaml here: not a problem folder", folder)
    spec, lines = load_mapping(spec_path)
    reader = _SpecReader(spec, lines, spec_path)
    problem = Problem(
        slug=folder.name,
        path=folder,
        name=reader.text("name"),
        source=reader.text("source", ""),
        class_name=reader.identifier("class"),
        method=reader.identifier("method"),
        parameters=reader.parameters(),
        returns=reader.type("returns"),
        time_limit=reader.number("time_limit", 2.0, low=0.01, high=60),
        memory_limit=int(reader.number("memory_limit", 256, low=16, high=16384)),
        checker=reader.choice("checker", ("exact",), "exact"),
        double_tolerance=reader.number("double_tolerance", 1e-9, low=0, high=1),
    )
    reader.reject_unknown()
    validator = _InputValidator(problem, spec.get("constraints") or {}, spec.get("rules") or [], reader)
    for test_file in _test_files(folder, spec.get("tests"), reader):
        problem.tests.extend(_load_tests(test_file, problem, validator))
    _reject_duplicate_names(problem.tests, folder / "tests")
    if not problem.tests:
        raise JudgeInputError("the problem has no tests", folder / "tests")
    return problem


class _SpecReader:
    """Typed access to problem.yaml fields, each complaint naming the line of the field."""

    KNOWN = {
        "name", "source", "class", "method", "parameters", "returns", "time_limit", "memory_limit",
        "checker", "double_tolerance", "constraints", "rules", "tests",
    }

    def __init__(self, spec: dict, lines: dict[str, int], path: Path):
        self.spec, self.lines, self.path = spec, lines, path

    def fail(self, key: str, message: str) -> JudgeInputError:
        return JudgeInputError(f"{key}: {message}", self.path, self.lines.get(key))

    def _get(self, key: str, default: Any = ...) -> Any:
        if key not in self.spec or self.spec[key] is None:
            if default is ...:
                raise JudgeInputError(f"missing required field '{key}'", self.path)
            return default
        return self.spec[key]

    def text(self, key: str, default: Any = ...) -> str:
        value = self._get(key, default)
        if not isinstance(value, str):
            raise self.fail(key, f"expected text, got {value!r}")
        return value

    def identifier(self, key: str) -> str:
        value = self.text(key)
        if not value.isidentifier():
            raise self.fail(key, f"{value!r} is not a Python identifier")
        return value

    def type(self, key: str, value: Any = ...) -> TCType:
        raw = self._get(key) if value is ... else value
        try:
            return TCType.parse(raw)
        except ValueError as err:
            raise self.fail(key, str(err)) from None

    def number(self, key: str, default: float, low: float, high: float) -> float:
        value = self._get(key, default)
        if type(value) not in (int, float) or not low <= value <= high:
            raise self.fail(key, f"expected a number between {low} and {high}, got {value!r}")
        return value

    def choice(self, key: str, options: tuple[str, ...], default: str) -> str:
        value = self._get(key, default)
        if value not in options:
            raise self.fail(key, f"unknown value {value!r} (known: {', '.join(options)})")
        return value

    def parameters(self) -> list[Parameter]:
        raw = self._get("parameters")
        if not isinstance(raw, list) or not raw:
            raise self.fail("parameters", "expected a non-empty list of {name, type}")
        params = []
        for item in raw:
            if not isinstance(item, dict) or set(item) != {"name", "type"} or not str(item["name"]).isidentifier():
                raise self.fail("parameters", f"each parameter needs exactly a name and a type, got {item!r}")
            params.append(Parameter(item["name"], self.type("parameters", item["type"])))
        if len({p.name for p in params}) != len(params):
            raise self.fail("parameters", "parameter names must be unique")
        return params

    def reject_unknown(self) -> None:
        for key in self.spec:
            if key not in self.KNOWN:
                raise self.fail(key, f"unknown field (known: {', '.join(sorted(self.KNOWN))})")


class _InputValidator:
    """Checks one test's arguments against the types, per-parameter constraints and cross-field rules."""

    def __init__(self, problem: Problem, constraints: Any, rules: Any, reader: _SpecReader):
        self.params = problem.parameters
        names = {p.name for p in self.params}
        if not isinstance(constraints, dict) or not set(constraints) <= names:
            raise reader.fail("constraints", f"expected a mapping from parameter names ({', '.join(sorted(names))})")
        self.constraints = {}
        for param in self.params:
            limits = constraints.get(param.name) or {}
            unknown = set(limits) - {"length", "alphabet", "range", "element_length"} if isinstance(limits, dict) else {"?"}
            if unknown:
                raise reader.fail("constraints", f"{param.name}: unknown constraint(s) {sorted(unknown)}")
            self.constraints[param.name] = limits
        if not isinstance(rules, list) or not all(isinstance(r, dict) and set(r) == {"check", "message"} for r in rules):
            raise reader.fail("rules", "expected a list of {check: expression, message: text}")
        self.rules = []
        for rule in rules:
            try:
                self.rules.append((compile(rule["check"], "<rule>", "eval"), rule["message"]))
            except SyntaxError as err:
                raise reader.fail("rules", f"rule {rule['check']!r} is not a Python expression: {err.msg}") from None

    def problems(self, values: dict[str, Any]) -> list[str]:
        found = []
        for param in self.params:
            value = values[param.name]
            found += [f"{param.name}: {p}" for p in _constraint_problems(value, param.type, self.constraints[param.name])]
        if found:
            return found
        for code, message in self.rules:
            try:
                holds = eval(code, {"__builtins__": RULE_BUILTINS}, dict(values))  # noqa: S307 - problem authors' rules
            except Exception as err:  # a rule that cannot be evaluated rejects the test, with the reason
                holds, message = False, f"{message} (rule failed: {type(err).__name__}: {err})"
            if not holds:
                found.append(message)
        return found


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


def _test_files(folder: Path, listed: Any, reader: _SpecReader) -> list[Path]:
    tests_dir = folder / "tests"
    if listed is None:
        found = sorted(tests_dir.glob("*.yaml"), key=lambda p: (p.name != EXAMPLES_FILE, p.name))
        return found
    if not isinstance(listed, list) or not all(isinstance(name, str) for name in listed):
        raise reader.fail("tests", "expected a list of file names under tests/")
    paths = [tests_dir / name for name in listed]
    for path in paths:
        if not path.is_file():
            raise reader.fail("tests", f"no such test file: {path}")
    unlisted = sorted(set(tests_dir.glob("*.yaml")) - set(paths))
    if unlisted:
        raise reader.fail("tests", f"{unlisted[0].name} is in tests/ but not listed, so it would never run")
    return paths


def _load_tests(path: Path, problem: Problem, validator: _InputValidator) -> list[TestCase]:
    names = [p.name for p in problem.parameters]
    tests = []
    for item in load_sequence(path):
        case, line = item.value, item.line
        if not isinstance(case, dict) or not {"name", "args", "expected"} <= set(case) or not set(case) <= {
            "name", "args", "expected", "note",
        }:
            raise JudgeInputError("a test case needs name, args and expected (and an optional note)", path, line)
        name, args = case["name"], case["args"]
        if not isinstance(name, str) or not name:
            raise JudgeInputError(f"test name must be text, got {name!r}", path, line)
        if not isinstance(args, dict) or set(args) != set(names):
            got = sorted(args) if isinstance(args, dict) else args
            raise JudgeInputError(f"test {name}: args must name exactly {names}, got {got}", path, line)
        for param in problem.parameters:
            problem_text = param.type.mismatch(args[param.name])
            if problem_text:
                raise JudgeInputError(f"test {name}: argument {param.name}: {problem_text}", path, line)
        mismatch = problem.returns.mismatch(case["expected"])
        if mismatch:
            raise JudgeInputError(f"test {name}: expected value: {mismatch}", path, line)
        violations = validator.problems(args)
        if violations:
            raise JudgeInputError(f"test {name} breaks the constraints: {'; '.join(violations)}", path, line)
        shaped = tuple(p.type.to_argument(args[p.name]) for p in problem.parameters)
        tests.append(TestCase(name, shaped, case["expected"], path.name, line, str(case.get("note") or "")))
    return tests


def _reject_duplicate_names(tests: list[TestCase], tests_dir: Path) -> None:
    seen: dict[str, TestCase] = {}
    for test in tests:
        if test.name in seen:
            first = seen[test.name]
            raise JudgeInputError(
                f"duplicate test name {test.name!r} (first at {first.file}:{first.line})",
                tests_dir / test.file,
                test.line,
            )
        seen[test.name] = test
