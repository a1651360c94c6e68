#!/usr/bin/env python3
"""Benchmark `judge.py stress`: cases per second at -j 1 and -j 2 on a trivial problem, against
baselines measured in the same run:
  - hypothesis alone (drawing inputs, no solution run): the ceiling stress could reach;
  - grading the same solution on fixed tests with one worker (tests/s): a stress case costs two runs
    (reference and solution), so -j 1 should reach about half of it, and -j 2 (the two runs at once)
    about all of it on two idle cores.
Run: python benchmarks/stress.py [--seconds S]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tabulate import tabulate  # noqa: E402

from tcjudge.engine.pool import Pool, SolutionRun  # noqa: E402
from tcjudge.problems.format import TestCase  # noqa: E402
from tcjudge.problems.loader import load_problem  # noqa: E402
from tcjudge.setter.stress import Duel, stress  # noqa: E402

PROBLEM = load_problem(ROOT / "testdata" / "setter" / "problems" / "largest")
REFERENCE = ROOT / "testdata" / "setter" / "solutions" / "largest" / "accepted" / "reference.py"


class DrawOnly:
    """Stands in for a Duel: hypothesis draws and checks inputs, nothing runs."""

    problem = PROBLEM

    def fight(self, values):
        return None


def grading_rate(seconds: float) -> float:
    """Tests per second grading the reference on a fixed input with one worker."""
    count = max(50, int(seconds * 200))
    tests = [TestCase(f"t{i}", ((3, 1, 2),), 3, "bench", 0) for i in range(count)]
    with Pool(1) as pool:
        pool.grade([SolutionRun(PROBLEM, REFERENCE, tests[:5], False)])  # start and warm the worker
        started = time.monotonic()
        pool.grade([SolutionRun(PROBLEM, REFERENCE, tests, False)])
        return count / (time.monotonic() - started)


def stress_rate(seconds: float, jobs: int | None) -> float:
    if jobs is None:
        result = stress(DrawOnly(), seconds, seed=1)
    else:
        with Duel(PROBLEM, REFERENCE, REFERENCE, jobs) as duel:
            result = stress(duel, seconds, seed=1)
    assert result.failure is None, "the reference disagreed with itself"
    return result.cases / result.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each stress run (default: 10)")
    options = parser.parse_args()
    print(f"{platform.python_implementation()} {platform.python_version()}, {len(os.sched_getaffinity(0))} cores, "
          f"load {os.getloadavg()[0]:.1f}")
    draw = stress_rate(options.seconds, None)
    grading = grading_rate(options.seconds)
    one = stress_rate(options.seconds, 1)
    two = stress_rate(options.seconds, 2)
    print(tabulate([
        ["hypothesis alone (no runs)", f"{draw:.0f}", ""],
        ["grading, 1 worker (tests/s)", f"{grading:.0f}", ""],
        ["stress -j 1", f"{one:.0f}", f"{one / grading:.2f} x grading"],
        ["stress -j 2", f"{two:.0f}", f"{two / one:.2f} x -j 1, {two / grading:.2f} x grading"],
    ], headers=["", "per second", "ratio"]))


if __name__ == "__main__":
    main()
