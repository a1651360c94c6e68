"""What of the judge's descriptors a solution's process holds (issue 45): 0, 1 and 2, and beyond them
only what docs/security.md lists ("Descriptors"), with why, in every mode and language.

Each fixture in testdata/descriptors/ writes on standard error the descriptors its process holds when
its own code runs (a C, C++ or Java program: from its first code after the exec; a Python method: when
it is called; a Python program: when it runs), then fails, so that every test's output is kept. Each
is graded through the real judge (a Pool, as `check` grades) on every test of a method problem
(adder), of standard-input problems (stdin/add, and the Kattis package addtwo) and of an interactive
package (guess), whichever forked its child (the zygote, or its template). And a wrong program that
writes on every descriptor it holds gets its own verdict, never the judge's IE.
"""

from __future__ import annotations

import re

import pytest

from tcjudge.engine.pool import Pool, SolutionRun
from tcjudge.languages import CPP, JAVA, PYTHON, C
from tcjudge.problems.loader import load_problem

from .conftest import FIXTURE_PROBLEMS, TESTDATA

FIXTURES = TESTDATA / "descriptors"
FILES = {"python": "descriptors.py", "c": "descriptors.c", "cpp": "descriptors.cpp", "java": "Adder.java"}
TOOLCHAINS = {"c": C, "cpp": CPP, "java": JAVA}
PROBLEMS = {"method": [FIXTURE_PROBLEMS / "adder"],
            "program": [TESTDATA / "stdin" / "problems" / "add", TESTDATA / "kattis" / "addtwo"],
            "interactive": [TESTDATA / "kattis" / "guess"]}
# Beyond 0, 1 and 2 (docs/security.md, "Descriptors", says why each is there and what it can do):
# Python's result and crash channels, in every mode (the solution runs in the process that reports);
# the result channel, the test's own arguments and the crash channel of our C++ method runtime, linked
# into the program; the result channel of our Java entry for a program (a method's is its 1).
BEYOND = {("python", "method"): {3, 5}, ("python", "program"): {3, 5}, ("python", "interactive"): {3, 5},
          ("cpp", "method"): {3, 4, 5}, ("java", "program"): {3}, ("java", "interactive"): {3},
          ("java", "method"): {4}}  # (the serving JVM keeps our runtime's module jar open: it was started in it)
RUNTIMES_OWN = {"java": {"image"}}  # what the runtime opens itself after the exec: the JDK's module image
LISTED = re.compile(r"^fd (\d+) (\w+)", re.MULTILINE)
CASES = [(language, mode) for mode in PROBLEMS for language in FILES if (language, mode) != ("c", "method")]


@pytest.fixture(scope="module")
def graded():
    """Every fixture on every problem of its modes, in one pool run: (language, mode) -> its results."""
    runs, cases = [], []
    for language, mode in CASES:
        if _missing(language):
            continue
        for folder in PROBLEMS[mode]:
            problem = load_problem(folder)
            runs.append(SolutionRun(problem, FIXTURES / FILES[language], problem.tests, stop_on_failure=False))
            cases.append((language, mode))
    with Pool(2) as pool:
        results = pool.grade(runs)
    found: dict = {}
    for case, result in zip(cases, results):
        found.setdefault(case, []).append(result)
    return found


@pytest.mark.parametrize("language, mode", CASES, ids=[f"{language}-{mode}" for language, mode in CASES])
def test_a_solution_holds_only_its_own_descriptors(graded, language, mode):
    if why := _missing(language):
        pytest.skip(why)
    for result in graded[(language, mode)]:
        assert not result.compile_message, result.compile_message
        for test in result.tests:
            held = {int(fd) for fd, kind in LISTED.findall(test.output) if kind not in RUNTIMES_OWN.get(language, ())}
            where = f"{result.problem.slug} test {test.name} ({test.verdict}: {test.message})"
            beyond = BEYOND.get((language, mode), set())
            if language == "python" and PYTHON.runner(result.problem) is not PYTHON:  # a package's: PyPy runs it,
                beyond = set()  # as a program of its own (docs/kattis.md), with no channel of ours in its process
            assert held == {0, 1, 2} | beyond, f"{where}:\n{test.output}"


def test_what_a_program_writes_on_every_descriptor_it_holds_is_its_own_doing():
    """A wrong program that writes "the judge is broken" everywhere is WA, not IE (set-up failed)."""
    if why := _missing("c"):
        pytest.skip(why)
    problem = load_problem(PROBLEMS["program"][0])
    with Pool(2) as pool:
        result, = pool.grade([SolutionRun(problem, FIXTURES / "blames_the_judge.c", problem.tests, stop_on_failure=False)])
    verdicts = [(test.name, str(test.verdict), test.message) for test in result.tests]
    assert verdicts and all(verdict == "WA" for _, verdict, _ in verdicts), verdicts


def _missing(language: str) -> str | None:
    """Why `language` cannot be graded here (its compiler is missing), or None."""
    toolchain = TOOLCHAINS.get(language)
    return toolchain.missing_message() if toolchain is not None and toolchain.toolchain() is None else None
