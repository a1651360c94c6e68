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
