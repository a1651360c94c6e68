"""Every misbehaving fixture solution under testdata/solutions gets the verdict its header declares.

They are graded in one pool run, as `check` would, so the whole corpus costs a few seconds.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys

import pytest

from tcjudge.engine.pool import Pool, SolutionRun

from tcjudge.engine.results import GradeResult
from tcjudge.engine.worker import Worker
from tcjudge.problems.loader import load_problem
from tcjudge.verdicts import Verdict

from .conftest import FIXTURE_PROBLEMS, ROOT, TESTDATA, expected_verdict

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


def test_skipped_tests_still_reach_the_progress():
    """Tests left unrun (after a first failure, or a solution that does not load) are reported done,
    without a verdict, so the progress count reaches its total."""
    problem = load_problem(FIXTURE_PROBLEMS / "adder")
    names = ("wrong_answer.py", "compile_error_syntax.py")
    runs = [SolutionRun(problem, TESTDATA / "solutions" / name, problem.tests, stop_on_failure=True) for name in names]
    seen: dict[str, list] = {name: [] for name in names}
    with Pool(1) as pool:
        pool.grade(runs, on_test=lambda run, index, result: seen[run.solution.name].append((index, result.verdict)))
    assert sorted(seen["wrong_answer.py"]) == [(0, Verdict.WA), (1, None), (2, None), (3, None)]
    assert sorted(seen["compile_error_syntax.py"]) == [(i, None) for i in range(4)]


def _lose_workers(monkeypatch, times: int) -> list:
    """Kill the zygote under the next `times` tests (a worker lost for the machine's reasons)."""
    real_send, killed = Worker.send_test, []

    def send_test(worker, *args, **kwargs):
        if len(killed) < times:
            killed.append(worker)  # (the worker, not its pid: a sandbox's pids may be reused at once)
            worker.process.kill()
            worker.process.wait()
        return real_send(worker, *args, **kwargs)

    monkeypatch.setattr(Worker, "send_test", send_test)
    return killed


def test_a_worker_lost_once_is_replaced_and_the_test_retried(monkeypatch):
    killed = _lose_workers(monkeypatch, times=1)
    problem = load_problem(FIXTURE_PROBLEMS / "adder")
    with Pool(1) as pool:
        [result] = pool.grade([SolutionRun(problem, TESTDATA / "solutions" / "accepted.py", problem.tests, True)])
    assert len(killed) == 1
    assert result.verdict is Verdict.AC and result.passed == 4


def test_a_worker_lost_twice_under_one_test_is_an_internal_error(monkeypatch):
    killed = _lose_workers(monkeypatch, times=2)
    problem = load_problem(FIXTURE_PROBLEMS / "adder")
    with Pool(1) as pool:
        [result] = pool.grade([SolutionRun(problem, TESTDATA / "solutions" / "accepted.py", problem.tests, True)])
    assert len(killed) == 2 and killed[0] is not killed[1]
    assert result.verdict is Verdict.IE
    assert result.first_failure.name == "example-0" and "died twice" in result.first_failure.message


def test_messages_name_the_exception_and_line(graded):
    assert graded["runtime_error_exception.py"].first_failure.message.startswith("ZeroDivisionError")
    assert "(line 5)" in graded["runtime_error_exception.py"].first_failure.message
    assert graded["runtime_error_segfault.py"].first_failure.message == "killed by SIGSEGV"  # no evidence of a stack overflow
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


STACK_OVERFLOW = "killed by SIGSEGV (stack overflow? it crashed over 100 calls deep)"
# A hard stack limit below the memory limit (soft, hard in KiB), and what the stack recursion fixture
# gets under it: from Python 3.12 the interpreter's C budget ends its recursion before a 16 MiB stack
# is full (RecursionError, as `python3 solution.py` under that limit), not before a 256 KiB one.
RECURSING_LINE = next(number for number, line in enumerate(
    (TESTDATA / "solutions" / "memory_limit_stack_recursion.py").read_text().splitlines(), 1) if "steps(k - 1)" in line)
C_BUDGET_SPENT = {(3, 12): "maximum recursion depth exceeded",  # the interpreter's words, as python3 says them
                  (3, 13): "maximum recursion depth exceeded while calling a Python object"}
LOW_STACKS = {"16 MiB": (8 << 10, 16 << 10, STACK_OVERFLOW if sys.version_info < (3, 12) else
                         f"RecursionError: {C_BUDGET_SPENT.get(sys.version_info[:2], C_BUDGET_SPENT[3, 13])} (line {RECURSING_LINE})"),
              "256 KiB": (256, 256, STACK_OVERFLOW)}


@pytest.mark.parametrize("stack", LOW_STACKS)
def test_deep_recursion_that_runs_out_of_stack_gets_the_hint(stack):
    """Under a hard stack limit below the memory limit (64 MiB), recursion through C runs out of
    stack before memory: RE, and faulthandler's traceback, cut at its 100 frames, is the evidence.
    A null pointer in shallow code crashes the same way without it."""
    script = """if True:
        import json, sys
        from pathlib import Path
        from tcjudge.engine.pool import Pool, SolutionRun
        from tcjudge.problems.loader import load_problem
        problem = load_problem(sys.argv[1])
        runs = [SolutionRun(problem, Path(path), problem.tests[:1], True) for path in sys.argv[2:]]
        with Pool(1) as pool:
            print(json.dumps({r.solution.name: [str(r.verdict), r.first_failure.message] for r in pool.grade(runs)}))
    """
    soft, hard, message = LOW_STACKS[stack]

    def lower_stack():
        resource.setrlimit(resource.RLIMIT_STACK, (soft << 10, hard << 10))

    solutions = TESTDATA / "solutions"
    done = subprocess.run([sys.executable, "-c", script, FIXTURE_PROBLEMS / "adder",
                           solutions / "memory_limit_stack_recursion.py", solutions / "runtime_error_segfault.py"],
                          cwd=ROOT, capture_output=True, text=True, preexec_fn=lower_stack, check=True)
    assert json.loads(done.stdout) == {
        "memory_limit_stack_recursion.py": ["RE", message],
        "runtime_error_segfault.py": ["RE", "killed by SIGSEGV"]}
