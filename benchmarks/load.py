#!/usr/bin/env python3
"""The load experiment: are verdicts a property of the solution alone?

Grades every solution of testdata/stability/ on an idle machine and again while CPU burner
processes (several per core) compete with it, at -j 1 and -j 2, and prints each test's verdict,
CPU and wall time under each condition. Any verdict that differs between conditions is a defect
(tests/test_verdict_stability.py asserts it). Run: python benchmarks/load.py [--burners-per-core N]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tabulate import tabulate  # noqa: E402

from tcjudge.engine.pool import Pool, SolutionRun  # noqa: E402
from tcjudge.engine.results import GradeResult  # noqa: E402
from tcjudge.problems.loader import load_problem  # noqa: E402

STABILITY = ROOT / "testdata" / "stability"
SOLUTIONS = sorted((STABILITY / "solutions").glob("*.py"))
CORES = len(os.sched_getaffinity(0))


@contextlib.contextmanager
def cpu_burners(count: int):
    """`count` processes spinning on the CPU for as long as the block runs."""
    burners = [subprocess.Popen([sys.executable, "-S", "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield burners
    finally:
        for burner in burners:
            burner.kill()
        for burner in burners:
            burner.wait()


def expected_verdict(path: Path) -> str:
    """The verdict a fixture solution declares in its `# expect: X` header line."""
    return re.search(r"^# expect: (\w+)$", path.read_text(), re.MULTILINE).group(1)


def grade_all(jobs: int) -> dict[str, GradeResult]:
    """Every stability solution on every test (no stop at the first failure), on `jobs` workers."""
    problem = load_problem(STABILITY / "problems" / "stability")
    runs = [SolutionRun(problem, path, problem.tests, stop_on_failure=False) for path in SOLUTIONS]
    with Pool(jobs) as pool:
        return {result.solution.stem: result for result in pool.grade(runs)}


def conditions(burners_per_core: int):
    """(label, jobs, burner count) of every condition, idle first."""
    for burners in (0, burners_per_core * CORES):
        for jobs in (1, 2):
            yield (f"-j {jobs}, " + (f"{burners} burners" if burners else "idle")), jobs, burners


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burners-per-core", type=int, default=3)
    options = parser.parse_args()
    table: dict[tuple[str, str], list[str]] = {}
    labels = []
    for label, jobs, burners in conditions(options.burners_per_core):
        labels.append(label)
        with cpu_burners(burners):
            results = grade_all(jobs)
        for stem, result in results.items():
            for test in result.tests:
                cell = f"{test.verdict or result.verdict} {test.cpu_ms:.0f}/{test.wall_ms:.0f}"
                table.setdefault((stem, test.name), []).append(cell)
        print(f"graded: {label}", file=sys.stderr)
    expected = {path.stem: expected_verdict(path) for path in SOLUTIONS}
    rows, unstable, wrong = [], 0, 0
    for (stem, name), cells in table.items():
        verdicts = {cell.split()[0] for cell in cells}
        unstable += len(verdicts) > 1
        wrong += verdicts != {expected[stem]}
        note = "DIFFERS" if len(verdicts) > 1 else "" if verdicts == {expected[stem]} else "WRONG"
        rows.append([stem, name, expected[stem], *cells, note])
    print(f"verdict CPU ms/wall ms per test, {CORES} cores")
    print(tabulate(rows, ["solution", "test", "expected", *labels, ""], disable_numparse=True))
    print(f"{unstable} of {len(rows)} tests changed verdict with the conditions; "
          f"{wrong} were not always at the expected verdict")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
