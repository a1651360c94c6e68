#!/usr/bin/env python3
"""Benchmark what the run history costs per test, against grading the same tests in the same run.

Grades every test of a problem's reference solution (-j1), then records that run in a fresh history
(one transaction, the changes against the previous run included) and looks it up again for reuse,
several times; prints each cost per test and as a share of the grading time per test.
Run: python benchmarks/history.py [SLUG] [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tcjudge.engine.pool import Pool, SolutionRun  # noqa: E402
from tcjudge.languages import EXTENSIONS  # noqa: E402
from tcjudge.problems.catalog import Catalog  # noqa: E402
from tcjudge.reports.history import History  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("slug", nargs="?", default="roxor")
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    catalog = Catalog(ROOT / "problems", ROOT / "solutions", EXTENSIONS)
    problem = catalog.problem(options.slug)
    reference = next(s for s in catalog.stored_solutions(options.slug) if s.path.stem == "reference")
    run = SolutionRun(problem, reference.path, problem.tests, False, reference.expected)
    started = time.perf_counter()
    with Pool(1) as pool:
        [result] = pool.grade([run])
    grading = (time.perf_counter() - started) / len(problem.tests)
    records, lookups = [], []
    with tempfile.TemporaryDirectory() as folder:
        history = History(Path(folder) / "history.sqlite")
        for _ in range(options.repeat):
            started = time.perf_counter()
            history.record("report", [], time.time(), [run], [result], {})
            records.append((time.perf_counter() - started) / len(problem.tests))
            started = time.perf_counter()
            assert history.reusable(run) is not None
            lookups.append((time.perf_counter() - started) / len(problem.tests))
        history.close()
    record, lookup = statistics.median(records), statistics.median(lookups)
    print(f"{options.slug}: {len(problem.tests)} tests of {reference.path.name}, medians of {options.repeat} runs")
    print(f"grading (baseline)   {grading * 1e3:8.3f} ms per test")
    print(f"recording the run    {record * 1e3:8.3f} ms per test  ({record / grading:.1%} of grading; "
          f"{record * len(problem.tests) * 1e3:.1f} ms for the run)")
    print(f"finding it for reuse {lookup * 1e3:8.3f} ms per test  ({lookup / grading:.1%} of grading)")


if __name__ == "__main__":
    main()
