"""TopCoder method problems, in our own folder layout: a solution is a class whose method the judge
calls with the test's arguments, and whose returned value is checked against the expected one.

    problems/<slug>/problem.yaml    name, source, class, method, parameters, returns (TopCoder types),
                                    time_limit, memory_limit, checker, double_tolerance, constraints, rules
    problems/<slug>/tests/*.yaml    lists of {name, args, expected, note}; examples.yaml = the examples

Everything a test file says is checked when it is loaded (types, constraints, cross-field rules), so a
mistake in test data is reported with its file and line instead of surfacing as a strange verdict.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from . import checkers
from .checkers import CUSTOM, VALUE, Checker, custom
from .checkers.custom import CHECKER_FILE
from .format import (RULE_BUILTINS, Findings, Kind, Parameter, Problem, Rule, SpecReader, TestCase,
                     did_you_mean, name_problem, read_items, reject_duplicate_names, test_files)
from .tctypes import TCType

CONSTRAINT_KEYS = ("length", "alphabet", "range", "element_length")
TEST_KEYS = ("name", "args", "expected", "note")


class MethodKind(Kind):
    name = "method"

    def claims(self, folder: Path, spec: dict) -> bool:
        return True  # asked last: a folder of our own that says no other type

    def inspect(self, folder: Path, spec: dict, lines: dict[str, int],
                findings: Findings) -> tuple[Problem | None, Findings]:
        return inspect_method_problem(folder, spec, lines, findings)

    def signature(self, problem: Problem) -> str:
        params = ", ".join(f"{p.type} {p.name}" for p in problem.parameters)
        return f"{problem.returns} {problem.method}({params})"


METHOD = MethodKind()


def inspect_method_problem(folder: Path, spec: dict, lines: dict[str, int],
                           findings: Findings) -> tuple[Problem | None, Findings]:
    """Load a method problem folder, collecting every error (see loader.inspect_problem)."""
    reader = MethodSpecReader(spec, lines, folder / "problem.yaml", findings)
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
    problem = Problem(slug=folder.name, path=folder, **values, kind=METHOD,
                      check=Checker(values["returns"], values["checker"], values["double_tolerance"]))
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


class MethodSpecReader(SpecReader):
    """problem.yaml of a method problem: its identifiers, TopCoder types, checker, constraints and rules."""

    KNOWN = {
        "format_version", "name", "source", "class", "method", "parameters", "returns", "time_limit",
        "memory_limit", "checker", "double_tolerance", "constraints", "rules", "tests",
    }

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

    def checker(self) -> tuple[str, ...] | None:
        raw = self._get("checker", "exact")
        names = (raw,) if isinstance(raw, str) else raw
        if not isinstance(names, (list, tuple)) or not names or not all(isinstance(n, str) for n in names):
            self.fail("checker", f"expected a checker name or a list of names, got {raw!r}")
            return None
        for name in names:
            if not checkers.applies(name, VALUE):  # (not every checker module imported, for a grade's start)
                self.fail("checker", f"unknown checker {name!r}{did_you_mean(name, checkers.names(VALUE))}")
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


def _free_names(expression: str) -> list[str]:
    """Names an expression reads from outside itself (names bound by comprehensions and lambdas excluded)."""
    tree = ast.parse(expression, mode="eval")
    bound = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    bound |= {arg.arg for node in ast.walk(tree) if isinstance(node, ast.Lambda) for arg in node.args.args}
    loaded = [node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)]
    return [name for name in dict.fromkeys(loaded) if name not in bound]


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
