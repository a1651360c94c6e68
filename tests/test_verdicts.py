"""Every misbehaving fixture solution under testdata/solutions gets the verdict its header declares.

They are graded in one pool run, as `check` would, so the whole corpus costs a few seconds.
"""

from __future__ import annotations

import pytest

from harness.engine.grading import GradeResult, Pool, SolutionRun
from harness.problems.format import load_problem
from harness.verdicts import Verdict

from .conftest import FIXTURE_PROBLEMS, TESTDATA, expected_verdict

SOLUTIONS = sorted((TESTDATA / "solutions").glob("*.py"))


@pytest.fixture(scope="module")
def graded() -> dict[str, GradeResult]:
    problem = load_problem(FIXTURE_PROBLEMS / "adder")
    runs = [SolutionRun(problem, path, problem.tests, stop_on_failure=True) for path in SOLUTIONS]
    with Pool(2) as pool:
        return {result.solution.name: result for result in pool.grade(runs)}


@pytest.mark.parametrize("path", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_fixture_gets_its_declared_verdict(graded, path):
    result = graded[path.name]
    failure = result.first_failure
    detail = result.compile_message or (failure.message if failure else "")
    assert str(result.verdict) == expected_verdict(path), detail


def test_every_verdict_is_exercised():
    declared = {expected_verdict(path) for path in SOLUTIONS}
    assert declared == {str(v) for v in Verdict} - {"IE"}


def test_accepted_run_reports_kernel_figures(graded):
    result = graded["accepted.py"]
    assert result.passed == len(result.tests) == 4
    for test in result.tests:
        assert 0 < test.cpu_ms < 500 and test.wall_ms > 0
        assert 5 < test.memory_mib < 64
    assert 5 < result.baseline_mib < 64


def test_stop_on_failure_leaves_later_tests_unrun():
    problem = load_problem(FIXTURE_PROBLEMS / "adder")
    run = SolutionRun(problem, TESTDATA / "solutions" / "wrong_answer.py", problem.tests, stop_on_failure=True)
    with Pool(1) as pool:  # one worker: nothing is in flight when the failure is recorded
        [result] = pool.grade([run])
    assert [t.verdict for t in result.tests] == [Verdict.WA, None, None, None]
    assert result.verdict is Verdict.WA and result.first_failure.name == "example-0"


def test_messages_name_the_exception_and_line(graded):
    assert graded["runtime_error_exception.py"].first_failure.message.startswith("ZeroDivisionError")
    assert "(line 5)" in graded["runtime_error_exception.py"].first_failure.message
    assert "SIGSEGV" in graded["runtime_error_segfault.py"].first_failure.message
    assert "without returning" in graded["runtime_error_os_exit.py"].first_failure.message
    assert "(line 5)" in graded["compile_error_syntax.py"].compile_message
    assert "no class Adder" in graded["compile_error_wrong_class.py"].compile_message
    assert "no method add" in graded["compile_error_no_method.py"].compile_message
    assert "ModuleNotFoundError" in graded["compile_error_import.py"].compile_message


def test_wrong_types_are_named(graded):
    assert "got boolean (True)" in graded["wrong_type_bool.py"].first_failure.message
    assert "got double (12.0)" in graded["wrong_type_float.py"].first_failure.message
    assert "got None" in graded["wrong_type_none.py"].first_failure.message
    assert "expected 12, got -1" in graded["wrong_lying_equality.py"].first_failure.message


def test_memory_limit_is_distinct_from_runtime_error(graded):
    for name in ("memory_limit_list.py", "memory_limit_caught.py", "memory_limit_bytes.py"):
        assert graded[name].verdict is Verdict.MLE, graded[name].first_failure.message
    assert graded["memory_limit_caught.py"].first_failure.memory_mib > 64


def test_time_limit_stops_near_the_limit(graded):
    looping = graded["time_limit_loop.py"].first_failure
    assert looping.verdict is Verdict.TLE
    # Stopped by the CPU limit (0.5 s), never much later, however busy the machine.
    assert looping.cpu_ms < 500 + 150 and "CPU time limit" in looping.message
    sleeping = graded["time_limit_sleep.py"].first_failure
    assert sleeping.message.startswith("idle for") and sleeping.cpu_ms < 100
