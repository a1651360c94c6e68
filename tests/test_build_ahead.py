"""The programs of a grading's runs are compiled ahead, on as many threads as there are workers (issue
48): a worker whose next test's program was being compiled waited for it with nothing to do, so a
package's submissions compiled one after the other on one core."""

from __future__ import annotations

import threading
import time

from tcjudge.engine.pool import Pool, SolutionRun
from tcjudge.problems.loader import load_problem

from .conftest import FIXTURE_PROBLEMS, TESTDATA

ADDER = FIXTURE_PROBLEMS / "adder"
ACCEPTED = TESTDATA / "solutions" / "accepted.py"


def test_two_runs_programs_are_compiled_side_by_side_at_j2(monkeypatch, tmp_path):
    """Each run's build (here a stand-in that takes 0.3 s and records when) overlaps another's at -j2:
    before, the second run's compile began only once a worker took its first test."""
    real_build, spans, lock = Pool._build, [], threading.Lock()

    def build(pool, run):
        started = time.monotonic()
        time.sleep(0.3)
        with lock:
            spans.append((started, time.monotonic()))
        return real_build(pool, run)

    monkeypatch.setattr(Pool, "_build", build)
    problem = load_problem(ADDER)
    copies = []
    for number in range(3):
        copy = tmp_path / f"accepted{number}.py"
        copy.write_bytes(ACCEPTED.read_bytes())
        copies.append(copy)
    runs = [SolutionRun(problem, copy, problem.tests, stop_on_failure=False) for copy in copies]
    with Pool(2) as pool:
        results = pool.grade(runs)
    assert all(result.passed == len(problem.tests) for result in results)
    assert len(spans) == 3  # each run built once
    spans.sort()
    assert any(later[0] < earlier[1] for earlier, later in zip(spans, spans[1:])), spans


def test_a_single_run_has_no_builder(monkeypatch):
    problem = load_problem(ADDER)
    assert Pool(2)._builders([SolutionRun(problem, ACCEPTED, problem.tests, stop_on_failure=False)], 2) == []
