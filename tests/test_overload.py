"""A busy machine costs time, not verdicts (issue 45): a test that could not get a CPU for the overload
bound is graded again, alone, before it is IE, and the pool backs off to one test at a time; an IE that
remains says so on its line.

The machine is made busy for real: CPU-bound neighbours, more than the cores, started by the test. The
overload bound is lowered (Limits.overload, read by the judge when it loads a solution) so that the
neighbours exceed it in a fraction of a second instead of 30.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tcjudge.cluster.tether import tethered
from tcjudge.engine import pool as pool_module
from tcjudge.engine.pool import OVERLOAD_RETRIES, Pool, SolutionRun
from tcjudge.problems.loader import load_problem
from tcjudge.protocol import Limits
from tcjudge.verdicts import Verdict

from .conftest import FIXTURE_PROBLEMS

ADDER = FIXTURE_PROBLEMS / "adder"
BOUND = 1.0  # s a test may wait for a CPU here
SPIN = 0.4  # s of CPU each test takes: among the neighbours, it waits past BOUND before it has them
NEIGHBOURS = 6 * max(1, len(os.sched_getaffinity(0)))  # a test gets a seventh of a core or less
SPINNER = f"""class Adder:
    def add(self, values, factor):
        import time
        start = time.process_time()
        while time.process_time() - start < {SPIN}:
            pass
        return sum(values) * factor
"""


@pytest.fixture
def low_bound(monkeypatch):
    monkeypatch.setattr(Limits, "overload", property(lambda self: BOUND))


@pytest.fixture
def neighbours():
    """CPU-bound processes on every core, stopped (SIGSTOP) by `quiet` and killed at the end."""
    started = [subprocess.Popen(tethered([sys.executable, "-c", "while True: pass"])) for _ in range(NEIGHBOURS)]

    class Busy:
        @staticmethod
        def quiet():
            for process in started:
                process.send_signal(signal.SIGSTOP)

    try:
        yield Busy
    finally:
        for process in started:
            process.kill()
            process.wait()


def _spinner(tmp_path: Path) -> Path:
    solution = tmp_path / "spinner.py"
    solution.write_text(SPINNER)
    return solution


def test_a_test_that_stays_overloaded_is_ie_after_its_retries_and_says_so(tmp_path, low_bound, neighbours,
                                                                          monkeypatch):
    monkeypatch.setattr(pool_module, "OVERLOAD_PATIENCE", 1.0)  # (no longer bound for the retries)
    problem = load_problem(ADDER)
    with Pool(1) as pool:
        [result] = pool.grade([SolutionRun(problem, _spinner(tmp_path), problem.tests[:1], stop_on_failure=True)])
    [test] = result.tests
    assert test.verdict is Verdict.IE
    assert "machine overloaded" in test.message
    assert f"graded {OVERLOAD_RETRIES + 1} times" in test.message


def test_the_machine_quieter_after_the_pool_backs_off_gives_the_solutions_verdict(tmp_path, low_bound, neighbours,
                                                                                   monkeypatch):
    """The neighbours stop when the pool backs off (as a machine does when the judge's own workers
    were what overloaded it): the retried test and every later one are AC, graded one at a time."""
    real_back_off = pool_module.Gate.back_off
    backed_off = []

    def back_off(gate):
        backed_off.append(True)
        neighbours.quiet()
        real_back_off(gate)

    monkeypatch.setattr(pool_module.Gate, "back_off", back_off)
    monkeypatch.setattr(pool_module, "OVERLOAD_PATIENCE", 30.0)  # (a machine busy with other work too: 30 s)
    problem = load_problem(ADDER)
    with Pool(2) as pool:
        [result] = pool.grade([SolutionRun(problem, _spinner(tmp_path), problem.tests, stop_on_failure=False)])
        assert pool._gate.limit == 1  # the rest of the grading ran one test at a time
    assert backed_off
    assert [test.verdict for test in result.tests] == [Verdict.AC] * len(problem.tests), result.tests


def test_a_retry_waits_longer_for_a_cpu_than_the_test_before(tmp_path, low_bound, neighbours):
    """The neighbours stay: the first try waits past the bound (1 s here), a retry may wait
    OVERLOAD_PATIENCE times as long, and gets its CPU time within that: AC, not IE."""
    problem = load_problem(ADDER)
    with Pool(1) as pool:
        [result] = pool.grade([SolutionRun(problem, _spinner(tmp_path), problem.tests[:1], stop_on_failure=True)])
        assert pool._patience > 1  # it was overloaded at first
    assert [test.verdict for test in result.tests] == [Verdict.AC], result.tests


def test_check_says_why_a_solution_is_ie_on_its_line(tmp_path, low_bound, neighbours, monkeypatch):
    """`check`'s line of a mismatch that is IE carries the IE's reason (it was only in the history)."""
    monkeypatch.setattr(pool_module, "OVERLOAD_PATIENCE", 1.0)
    from tcjudge.engine.results import GradeResult
    from tcjudge.problems.expectations import Expectation
    from tcjudge.verdicts import Verdict as V

    problem = load_problem(ADDER)
    with Pool(1) as pool:
        [result] = pool.grade([SolutionRun(problem, _spinner(tmp_path), problem.tests[:1], stop_on_failure=True)])
    stored = GradeResult(problem, result.solution, result.tests, expected=Expectation.of(V.TLE))
    assert "example-0: machine overloaded: the test waited" in stored.mismatch, stored.mismatch


def test_grade_and_report_say_why_a_solution_is_ie(tmp_path):
    """An IE that is not the first failing test (a WA before it) still says its reason: grade's summary
    and report's lines (its table showed only the verdict)."""
    from tcjudge.engine.results import GradeResult, TestResult
    from tcjudge.reports.tables import internal_errors, summary_line

    problem = load_problem(ADDER)
    result = GradeResult(problem, tmp_path / "x.py", [
        TestResult("example-0", Verdict.WA, message="expected 1, got 2"),
        TestResult("example-1", Verdict.IE, message="machine overloaded: the test waited 31.0 s for a CPU")])
    assert "internal error: example-1: machine overloaded" in summary_line(result)
    assert internal_errors([result]).endswith("x.py: example-1: machine overloaded: the test waited 31.0 s for a CPU")


def test_a_load_that_could_not_get_a_cpu_is_loaded_again_not_the_runs_verdict(tmp_path, low_bound, neighbours):
    """The solution's import spins (as a big table built at import time does): among the neighbours its
    load waits past the bound. Before, that IE was every test's verdict at once (test_adversarial's
    compile_punycode_slow at load 30: 'while loading the solution: machine overloaded'); now the load is
    tried again with the tests' retries and their patience, and the run gets its own verdict."""
    solution = tmp_path / "slow_import.py"
    solution.write_text(f"import time\n_start = time.process_time()\nwhile time.process_time() - _start < {SPIN}:\n"
                        f"    pass\n\n\n" + SPINNER.replace(str(SPIN), "0"))
    problem = load_problem(ADDER)
    with Pool(1) as pool:
        [result] = pool.grade([SolutionRun(problem, solution, problem.tests[:1], stop_on_failure=True)])
        assert pool._patience > 1  # its load was overloaded at first
    assert [test.verdict for test in result.tests] == [Verdict.AC], (result.tests, result.compile_message)


@pytest.mark.parametrize("load", [0.5, 50.0])
def test_a_grading_on_a_busy_machine_says_so(judge, tmp_path, monkeypatch, load):
    """issue 45: at load 46 on 2 CPUs a test's CPU time read 1.3-2.6x its quiet figure (excursion's
    accepted Java and Python submissions, per test): a close verdict there is not the solution's
    alone. A grading on such a machine says so in a note (docs/verdicts.md); on a quiet one, nothing."""
    from tcjudge import runs

    from .conftest import stored_fixture

    monkeypatch.setattr(runs, "BUSY_AFTER_SECONDS", 0.0)
    monkeypatch.setattr(runs.os, "getloadavg", lambda: (load, load, load))
    problems, solutions = stored_fixture(tmp_path, {"accepted": ["accepted.py"]})
    code, out, err = judge("--problems", problems, "--solutions", solutions, "check")
    assert code == 0, out + err
    said = "judge: note: the machine was busy while grading (load 50.0 on "
    assert (said in err) == (load > 2 * (os.cpu_count() or 1)), err
