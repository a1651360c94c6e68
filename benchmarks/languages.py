#!/usr/bin/env python3
"""Benchmark the per-test overhead of each language, against Python's in the same run.

A trivial solution of the fixture problem `adder` (testdata/) in Python, C++ and Java is loaded into
one worker, then N identical tests are run one after the other. For each language it prints the
median and 90th percentile of the judge's round trip per test (request to facts: fork or spare
child, exec, the call, the kernel's figures), the CPU time charged to the solution, its peak memory,
and the round trip's ratio to Python's. It also times compiling: cold (an empty cache) and cached.
Run: python benchmarks/languages.py [--tests N]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tabulate import tabulate  # noqa: E402

from tcjudge import languages  # noqa: E402
from tcjudge.engine.worker import Worker  # noqa: E402
from tcjudge.problems.loader import load_problem  # noqa: E402

PROBLEM = load_problem(ROOT / "testdata" / "problems" / "adder")
SOLUTIONS = {
    "python": ROOT / "testdata" / "solutions" / "accepted.py",
    "cpp": ROOT / "testdata" / "languages" / "cpp" / "accepted.cpp",
    "java": ROOT / "testdata" / "languages" / "java" / "Accepted.java",
}
SOURCE_LIMIT = 1 << 20


def compile_times(path: Path) -> tuple[float, float]:
    """Seconds to build into an empty cache, then to find the build in it."""
    language = languages.for_path(path)
    with tempfile.TemporaryDirectory() as cache:
        previous = os.environ.get("JUDGE_CACHE")
        os.environ["JUDGE_CACHE"] = cache
        try:
            started = time.perf_counter()
            language.program(path, PROBLEM, SOURCE_LIMIT)
            cold = time.perf_counter() - started
            started = time.perf_counter()
            language.program(path, PROBLEM, SOURCE_LIMIT)
            return cold, time.perf_counter() - started
        finally:
            if previous is None:
                del os.environ["JUDGE_CACHE"]
            else:
                os.environ["JUDGE_CACHE"] = previous


def per_test(path: Path, count: int) -> dict:
    """Round trip, charged CPU and peak memory of `count` trivial tests in one worker."""
    language = languages.for_path(path)
    program = language.program(path, PROBLEM, SOURCE_LIMIT)
    worker = Worker()
    try:
        response = worker.load(("bench", str(path)), path, PROBLEM.class_name, PROBLEM.method, PROBLEM.time_limit,
                               PROBLEM.memory_limit, check=False, program=program)
        assert response["ok"], response
        args = ([1, 2, 3], 2)
        worker.run(args)  # the first spare is forked on demand: not a steady-state figure
        trips, cpu, memory = [], [], []
        for _ in range(count):
            started = time.perf_counter()
            facts = worker.run(args)
            trips.append(time.perf_counter() - started)
            assert '"value": 12' in facts.report.replace(":12", ": 12"), facts
            cpu.append(facts.cpu)
            memory.append(facts.memory_mib)
    finally:
        worker.close()
    trips.sort()
    return {"median": statistics.median(trips), "p90": trips[int(0.9 * (len(trips) - 1))],
            "cpu": statistics.median(cpu), "memory": statistics.median(memory)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tests", type=int, default=200, help="tests per language (default 200)")
    options = parser.parse_args()
    print(f"{platform.system()} {platform.release()}, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f}; {options.tests} trivial tests per language, one worker")
    rows, python_median = [], None
    for name, path in SOLUTIONS.items():
        language = languages.for_path(path)
        toolchain = language.toolchain()
        if toolchain is None:
            rows.append([language.title, "-", "-", "-", "-", "-", "-", language.missing_message()])
            continue
        cold, cached = compile_times(path) if name != "python" else (0.0, 0.0)
        figures = per_test(path, options.tests)
        python_median = python_median or figures["median"]
        rows.append([language.title, f"{figures['median'] * 1000:.2f}", f"{figures['p90'] * 1000:.2f}",
                     f"{figures['median'] / python_median:.2f}", f"{figures['cpu'] * 1000:.2f}",
                     f"{figures['memory']:.1f}",
                     "-" if name == "python" else f"{cold:.2f} / {cached * 1000:.1f} ms", toolchain.version])
    print(tabulate(rows, ["language", "round trip median ms", "p90 ms", "x Python", "CPU charged ms",
                          "peak MiB", "compile cold s / cached", "toolchain"], tablefmt="github"))


if __name__ == "__main__":
    main()
