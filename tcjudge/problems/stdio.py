"""Standard-input problems in our own folder layout: a program reads a test's input on standard input
and writes its answer on standard output (CodeChef, Codeforces, ICPC style).

    problems/<slug>/problem.yaml     type: stdin, name, source, time_limit, memory_limit,
                                     validator_flags (Kattis default-validator flags),
                                     output_validator (a program of the problem's, Kattis protocol),
                                     checker: testlib (checker.cpp/.py of the problem's, testlib convention)
    problems/<slug>/tests/*.in+.ans  one test per pair, named after the file
    problems/<slug>/tests/*.yaml     lists of {name, input, output, note}; examples.yaml = the examples

Kattis/ICPC packages are read by kattis.py into the same Problem shape.
"""

from __future__ import annotations

from pathlib import Path

from .format import (TEST_SUFFIX, Data, Findings, Kind, Problem, SpecReader, TestCase, read_items,
                     reject_duplicate_names, test_files)
from .checkers import OutputCheck

KNOWN_FIELDS = {"format_version", "type", "name", "source", "time_limit", "memory_limit", "validator_flags", "output_validator",
                "checker", "tests"}
TEST_KEYS = ("name", "input", "output", "note")


class StdinKind(Kind):
    name = "stdin"
    program = True
    test_suffixes = (TEST_SUFFIX, ".in", ".ans")

    def claims(self, folder: Path, spec: dict) -> bool:
        return spec.get("type") == "stdin"

    def inspect(self, folder: Path, spec: dict, lines: dict[str, int],
                findings: Findings) -> tuple[Problem | None, Findings]:
        return inspect_stdin_problem(folder, spec, lines, findings)

    def signature(self, problem: Problem) -> str:
        return "standard input -> standard output"


STDIN = StdinKind()


def inspect_stdin_problem(folder: Path, spec: dict, lines: dict[str, int],
                          findings: Findings) -> tuple[Problem | None, Findings]:
    """Load a stdin problem folder, collecting every error (see loader.inspect_problem)."""
    reader = SpecReader(spec, lines, folder / "problem.yaml", findings)
    reader.KNOWN = KNOWN_FIELDS
    values = {
        "name": reader.text("name"),
        "source": reader.text("source", ""),
        "time_limit": reader.number("time_limit", 2.0, low=0.01, high=60),
        "memory_limit": reader.number("memory_limit", 256, low=16, high=16384),
        "check": output_check(folder, spec.get("validator_flags"), spec.get("output_validator"), reader,
                              spec.get("checker")),
    }
    reader.reject_unknown()
    if any(value is None for value in values.values()):
        return None, findings
    problem = stdin_problem(folder, **values)
    tests_dir = folder / "tests"
    for path in test_files(folder, spec.get("tests"), reader, findings, suffixes=(".yaml", ".in")):
        problem.tests.extend(_yaml_tests(path, findings) if path.suffix == ".yaml" else _file_test(path, findings))
    reject_duplicate_names(problem.tests, tests_dir, findings)
    if not problem.tests and not findings.errors:
        findings.error("the problem has no tests (tests/*.in with .ans, or tests/*.yaml)", tests_dir)
    return problem, findings


def stdin_problem(folder: Path, name: str, source: str, time_limit: float, memory_limit: float, check: OutputCheck,
                  package: str = "", kind: StdinKind = STDIN) -> Problem:
    """A Problem whose solutions are programs (no class, method or types), tests to be added."""
    return Problem(slug=folder.name, path=folder, name=name, source=source, class_name="", method="",
                   parameters=[], returns=None, time_limit=time_limit, memory_limit=int(memory_limit),
                   kind=kind, check=check, package=package)


def output_check(folder: Path, flags, validator, reader: SpecReader, checker=None) -> OutputCheck | None:
    """The `tokens` checker with the flags, the problem's own output validator (which gets the flags),
    or (`checker: testlib`) its testlib checker; None (with the fault recorded) when one is unusable."""
    if flags is not None and not isinstance(flags, (str, list)):
        reader.fail("validator_flags", "expected text or a list of words")
        return None
    if checker is not None:
        return _testlib_check(folder, flags, validator, reader, checker)
    if validator is not None:
        if not isinstance(validator, str) or not (folder / validator).exists():
            reader.fail("output_validator", f"no such file in the problem folder: {validator!r}")
            return None
        from .checkers.output_validator import OutputValidator  # (imported by the problems that use it)

        words = flags.split() if isinstance(flags, str) else [str(word) for word in flags or []]
        return OutputCheck("output_validator", OutputValidator(folder / validator, words))
    from .checkers.tokens import TokenRules  # (here: the loader imports this module to ask any folder's kind)

    try:
        return OutputCheck("tokens", TokenRules.parse(flags))
    except ValueError as err:
        reader.fail("validator_flags", str(err))
        return None


def _testlib_check(folder: Path, flags, validator, reader: SpecReader, checker) -> OutputCheck | None:
    from .checkers import testlib

    if checker != testlib.NAME:
        reader.fail("checker", f"a stdin problem's checker is {testlib.NAME!r} (or none: tokens, or output_validator), "
                               f"not {checker!r}")
        return None
    if validator is not None or flags is not None:
        reader.fail("checker", "a testlib checker takes neither output_validator nor validator_flags")
        return None
    program = testlib.find_program(folder)
    if program is None:
        reader.fail("checker", f"checker: testlib needs one of {', '.join(testlib.SOURCES)} in the problem folder")
        return None
    return OutputCheck(testlib.NAME, testlib.TestlibChecker(program))


def _file_test(path: Path, findings: Findings) -> list[TestCase]:
    answer = path.with_suffix(".ans")
    if not answer.is_file():
        findings.error(f"no answer file {answer.name} beside it", path)
        return []
    return [TestCase(path.stem, (), None, path.name, 1, input=Data(path=path), answer=Data(path=answer))]


def _yaml_tests(path: Path, findings: Findings) -> list[TestCase]:
    tests = []
    for item in read_items(path, findings):
        case, line = item.value, item.line
        if not isinstance(case, dict) or not {"name", "input", "output"} <= set(case) <= set(TEST_KEYS):
            findings.error("a stdin test needs name, input and output (and an optional note)", path, line)
            continue
        name, given, wanted = case["name"], case["input"], case["output"]
        if not isinstance(name, str) or not name:
            findings.error(f"test name must be text, got {name!r}", path, line)
        elif not isinstance(given, str) or not isinstance(wanted, str):
            findings.error(f"test {name}: input and output must be text (use a | block)", path, line)
        else:
            tests.append(TestCase(name, (), None, path.name, line, str(case.get("note") or ""),
                                  input=Data(inline=given.encode()), answer=Data(inline=wanted.encode())))
    return tests
