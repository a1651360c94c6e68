"""A command grades the stored solutions expected to time out first (issue 48): their tests take the
longest, so the grading ends on short tests with every worker busy, not on a TLE test run alone."""

from __future__ import annotations

from tcjudge.engine.pool import SolutionRun
from tcjudge.problems.expectations import Expectation
from tcjudge.problems.loader import load_problem
from tcjudge.reports.history import History
from tcjudge.runs import grade_and_record
from tcjudge.verdicts import Verdict

from .conftest import FIXTURE_PROBLEMS, TESTDATA


def test_the_solutions_expected_to_time_out_are_graded_first(tmp_path):
    problem = load_problem(FIXTURE_PROBLEMS / "adder")
    solutions = {name: TESTDATA / "solutions" / f"{name}.py" for name in ("accepted", "wrong_answer", "time_limit")}
    expected = {"accepted": Verdict.AC, "wrong_answer": Verdict.WA, "time_limit": Verdict.TLE}
    runs = [SolutionRun(problem, path, problem.tests, True, Expectation.of(expected[name]))
            for name, path in solutions.items()]
    order = []

    def grade(chosen):
        order.extend(run.solution.stem for run in chosen)
        return [run.result() for run in chosen]

    history = History(tmp_path / "history.sqlite")
    try:
        judged = grade_and_record(history, "check", ["check"], runs, True, grade)
    finally:
        history.close()
    assert order == ["time_limit", "accepted", "wrong_answer"]
    assert [result.solution.stem for result in judged.results] == ["accepted", "wrong_answer", "time_limit"]


FAILS_THEN_WAITS = """import time
class Adder:
    def add(self, values, factor):
        if values == (1, 2, 3):  # example-0: wrong, after a while
            time.sleep(2)
            return 0
        while True:  # every later test: never ends (the idle limit stops it)
            time.sleep(1)
"""


def test_a_test_after_a_failure_that_another_worker_runs_is_ended(tmp_path):
    """issue 48: at -j2 a run that stops at its first failure had its later tests run on in the other
    worker to their own limits, though they never count (a submission that must time out: up to its
    14 s margin on excursion). Now they are ended when the failure is known: the test sleeping in the
    other worker when example-0 fails at 2 s has no result (before: TLE, idle for 5 s)."""
    from tcjudge.engine.pool import Pool
    from tcjudge.record import replace

    solution = tmp_path / "fails_then_waits.py"
    solution.write_text(FAILS_THEN_WAITS)
    problem = load_problem(FIXTURE_PROBLEMS / "adder")
    problem = replace(problem, time_limit=2.0)
    run = SolutionRun(problem, solution, problem.tests, stop_on_failure=True)
    with Pool(2) as pool:
        [result] = pool.grade([run])
    assert [t.verdict for t in result.tests] == [Verdict.WA, None, None, None], result.tests
    assert all(later is None or later.verdict is None for later in run.results[1:]), run.results


def test_each_worker_takes_a_run_of_its_own_before_helping_one_that_has_a_worker():
    """issue 48: at -j2 both workers took the tests of the first run (a submission that must time out:
    the test after its first failure ran beside it to the margin, 4 s each on joinedsessions), then
    both the second's. Now the second worker takes the second run, and helps a run only when every
    run left has a worker; a thread's test sent ahead is its own run's next one."""
    from tcjudge.engine.feed import Tests

    problem = load_problem(FIXTURE_PROBLEMS / "adder")
    first, second = (SolutionRun(problem, TESTDATA / "solutions" / f"{name}.py", problem.tests[:2], True)
                     for name in ("time_limit", "accepted"))
    jobs = Tests([first, second])
    assert jobs.take() == (first, 0)
    assert jobs.take() == (second, 0)  # (before: (first, 1), beside the first's test 0)
    assert jobs.take_ahead(second, 2) == (second, 1)  # the second worker's next, sent ahead
    assert jobs.take() == (first, 1)  # every run has a worker: help the first
    first.pending = second.pending = 0
    assert jobs.take() is None and jobs.qsize() == 0
