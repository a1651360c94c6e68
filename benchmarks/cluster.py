#!/usr/bin/env python3
"""Benchmark grading on a Dask cluster against grading locally, on this machine.

Every cluster figure is printed next to a local baseline measured in the same run:
  - throughput of `check` (every stored solution, each stopping at its first failing test): tests per
    second and solutions per minute with 1 and 2 Dask worker processes (one thread each), against a
    local Pool with -j1 and -j2;
  - throughput of every test of the accepted solutions (many short tests, split into chunks), likewise;
  - the cost per task of going through the scheduler: a trivial task's round trip (submit, run on a
    worker, result back), one at a time and many at once; and grading one trivial test as a cluster
    task (its zygote started ahead, while the task before ran) against grading it with a fresh local
    Pool of one worker (which starts one).
The scheduler and workers are `dask scheduler` / `dask worker` processes on 127.0.0.1 started here.
Run: python benchmarks/cluster.py [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tabulate import tabulate  # noqa: E402

from tcjudge.cluster.client import ClusterPool  # noqa: E402
from tcjudge.cluster.local import local_cluster  # noqa: E402
from tcjudge.engine.pool import Pool, SolutionRun  # noqa: E402
from tcjudge.languages import EXTENSIONS  # noqa: E402
from tcjudge.problems.catalog import Catalog  # noqa: E402
from tcjudge.verdicts import Verdict  # noqa: E402

CATALOG = Catalog(ROOT / "problems", ROOT / "solutions", EXTENSIONS)


def stored_runs(accepted_only: bool) -> list[SolutionRun]:
    """`check`'s runs (stop at the first failure), or every test of every accepted solution."""
    runs = []
    for slug in CATALOG.slugs():
        problem = CATALOG.problem(slug)
        for stored in CATALOG.stored_solutions(slug):
            if not accepted_only or stored.expected.verdict is Verdict.AC:
                runs.append(SolutionRun(problem, stored.path, problem.tests, not accepted_only, stored.expected))
    return runs


def throughput(pool, accepted_only: bool) -> tuple[float, float, int]:
    """(tests per second, solutions per minute, mismatches) of grading the runs on `pool`."""
    runs = stored_runs(accepted_only)
    started = time.monotonic()
    results = pool.grade(runs)
    elapsed = time.monotonic() - started
    tests = sum(test.verdict is not None for result in results for test in result.tests)
    return tests / elapsed, len(results) / elapsed * 60, sum(not r.matched for r in results)


def local(jobs: int, accepted_only: bool):
    with Pool(jobs) as pool:
        return throughput(pool, accepted_only)


def on_cluster(address: str, accepted_only: bool):
    with ClusterPool(address) as pool:
        return throughput(pool, accepted_only)


def round_trips(address: str, count: int) -> tuple[float, float]:
    """Median ms of one trivial task at a time; and ms per task of `count` submitted at once."""
    from distributed import Client

    with Client(address, set_as_default=False) as client:
        client.submit(abs, -1, pure=False).result()  # warm the connections
        one = []
        for number in range(count):
            started = time.perf_counter()
            client.submit(abs, -number, pure=False).result()
            one.append(time.perf_counter() - started)
        started = time.perf_counter()
        client.gather(client.map(abs, range(-count, 0), pure=False))
        many = (time.perf_counter() - started) / count
    return statistics.median(one) * 1e3, many * 1e3


def one_test_task(address: str, count: int) -> tuple[float, float]:
    """Median ms to grade one trivial test: as a cluster task (the worker's spare zygote, started
    during the task before, loads the solution) and with a fresh local Pool(1) (which starts a zygote
    and loads it): the difference is the scheduler's share less the zygote's start."""
    problem = CATALOG.problem("roxor")
    solution = ROOT / "solutions" / "roxor" / "accepted" / "reference.py"

    def timed(pool) -> float:
        started = time.perf_counter()
        [result] = pool.grade([SolutionRun(problem, solution, problem.tests[:1], True)])
        assert result.verdict is Verdict.AC, result.tests
        return time.perf_counter() - started

    remote, here = [], []
    with ClusterPool(address) as cluster:
        timed(cluster)  # the bundles reach the worker's cache once
        for _ in range(count):
            remote.append(timed(cluster))
            with Pool(1) as pool:
                here.append(timed(pool))
    return statistics.median(remote) * 1e3, statistics.median(here) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200, help="trivial tasks for the round-trip figures")
    options = parser.parse_args()
    rows = []
    for accepted_only, what in ((False, "check (first failure)"), (True, "every test of AC solutions")):
        for workers in (1, 2):
            base_tests, base_solutions, base_bad = local(workers, accepted_only)
            with local_cluster(nworkers=workers) as cluster:
                tests, solutions, bad = on_cluster(cluster.address, accepted_only)
            assert bad == base_bad == 0, f"{bad} / {base_bad} solutions off their expected verdict"
            rows.append([f"{what}, {workers} worker(s)",
                         f"{tests:.0f} tests/s, {solutions:.1f} solutions/min",
                         f"-j{workers}: {base_tests:.0f} tests/s, {base_solutions:.1f} solutions/min",
                         f"{tests / base_tests:.2f}x local"])
    with local_cluster(nworkers=1) as cluster:
        one, many = round_trips(cluster.address, options.rounds)
        rows.append(["trivial task round trip", f"{one:.2f} ms one at a time", f"{many:.2f} ms each, "
                     f"{options.rounds} at once", "scheduler + worker + 2 hops"])
        remote, here = one_test_task(cluster.address, 20)
        rows.append(["grade 1 trivial test as a task", f"{remote:.1f} ms (cluster)", f"{here:.1f} ms (fresh local Pool(1))",
                     f"{remote - here:+.1f} ms per task"])
    print(f"Machine: {platform.node()}, {platform.system()} {platform.release()}, {platform.machine()}, "
          f"{len(os.sched_getaffinity(0))} cores, Python {platform.python_version()}, load {os.getloadavg()[0]:.2f}")
    print(tabulate(rows, ["figure", "cluster", "local baseline", "ratio"], tablefmt="github"))


if __name__ == "__main__":
    main()
