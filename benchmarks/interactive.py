#!/usr/bin/env python3
"""One interactive package judged by this judge and by problemtools, same submission, same machine, one
run: milliseconds per test for each, and the ratios.

The package is testdata/kattis/guess's game (its interactor and its accepted bisect.py) with N secret
numbers as its tests:

  - ours: the warm worker's interactive round trip per test (interactor started, confined and pinned
    beside the program, both ended, verdict read: its median), and `judge.py grade` on the package (-j1);
  - problemtools: `verifyproblem PKG -p submissions -j 1` (Kattis), when installed.

Whole-command figures include each tool's start-up, so every command runs on the package with N tests
and with 1 test: the difference over N - 1 is the cost of one more test. Both run the submission and
the interactor with this CPython (see peers.py). The machine is shared: the figures are for comparing
within one run, not for quoting.

Run: python benchmarks/interactive.py [--tests N] [--install] [--venv DIR]
  --install  install problemtools from PyPI into a virtual environment (--venv, by default a temporary
             one) when verifyproblem is not on PATH
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tabulate import tabulate

from peers import ROOT, find_peer_tools, peer_environment, peer_options, per_test, print_machine, timed

from tcjudge.engine.judging import judge_interaction
from tcjudge.engine.worker import Worker
from tcjudge.problems.loader import load_problem
from tcjudge.verdicts import Verdict

GUESS = ROOT / "testdata" / "kattis" / "guess"
SUBMISSION = Path("submissions") / "accepted" / "bisect.py"
PROBLEM_YAML = """name: Guess the Number
source: benchmarks/interactive.py
validation: custom interactive
limits:
  memory: 512
"""


def write_package(folder: Path, tests: int) -> Path:
    """The guessing game with one sample and `tests` - 1 secret numbers, and its accepted bisect.py."""
    package = folder / "guess"
    shutil.copytree(GUESS / "output_validators", package / "output_validators")
    (package / SUBMISSION).parent.mkdir(parents=True)
    shutil.copy(GUESS / SUBMISSION, package / SUBMISSION)
    (package / "problem.yaml").write_text(PROBLEM_YAML)
    (package / ".timelimit").write_text("1\n")
    for index in range(tests):
        where = package / "data" / ("sample" if index == 0 else "secret") / f"{index:04}"
        where.parent.mkdir(parents=True, exist_ok=True)
        where.with_suffix(".in").write_text(f"{1 + index * 7919 % 1000}\n")
        where.with_suffix(".ans").write_text("")
    return package


def worker_median(package: Path) -> float:
    """Median round trip of one interactive test through a warm worker (what `grade` pays per test)."""
    problem = load_problem(package)
    worker = Worker()
    try:
        response = worker.load(("bench",), package / SUBMISSION, None, None, problem.time_limit, problem.memory_limit,
                               check=False, mode="interactive")
        assert response["ok"], response
        times = []
        for test in problem.tests:
            with problem.interactor.session(test.answer.read()) as session:
                spec = session.interaction(test.input.read())
                started = time.perf_counter()
                facts = worker.run_interactive(spec)
                times.append(time.perf_counter() - started)
                verdict, message = judge_interaction(facts, problem, session.message())
            assert verdict is Verdict.AC, (test.name, message, facts)
        return statistics.median(times) * 1000
    finally:
        worker.close()


def main() -> None:
    options = peer_options(__doc__, 50, "problemtools")
    python = os.path.realpath(sys.executable)
    tools, notes = find_peer_tools(options.install, options.venv, ("verifyproblem",))

    with tempfile.TemporaryDirectory(prefix="judge-interactive-bench-") as scratch:
        scratch = Path(scratch)
        env = peer_environment(scratch, python)

        def package(tests: int) -> Path:
            folder = scratch / f"problems-{tests}"
            return folder / "guess" if folder.exists() else write_package(folder, tests)

        def ours(tests: int) -> float:
            return timed([sys.executable, str(ROOT / "judge.py"), "--problems", str(package(tests).parent), "grade",
                          str(package(tests) / SUBMISSION), "--problem", "guess", "-j", "1"], ROOT, env)[0]

        def problemtools(tests: int) -> float:
            return timed([tools["verifyproblem"], str(package(tests)), "-p", "submissions", "-j", "1"], scratch, env)[0]

        round_trip = worker_median(package(options.tests))
        whole, extra = per_test(ours, options.tests, options.reps)
        rows = [["this judge: worker's interactive round trip (median)", f"{round_trip:.2f}", "", ""],
                ["this judge: `judge.py grade -j1`", f"{whole:.2f}", f"{extra:.2f}", "1.0x"]]
        label = "problemtools `verifyproblem -p submissions -j 1`"
        if not tools["verifyproblem"]:
            rows.append([label, "not run", "", ""])
        else:
            try:
                peer_whole, peer_extra = per_test(problemtools, options.tests, options.reps)
                rows.append([label, f"{peer_whole:.2f}", f"{peer_extra:.2f}", f"{peer_extra / extra:.1f}x"])
            except (RuntimeError, subprocess.TimeoutExpired) as err:
                notes.append(f"verifyproblem failed: {err}")
                rows.append([label, "failed", "", ""])

    print_machine(f"{options.tests} tests of an interactive package (a guessing game: about 10 exchanges per "
                  f"test), one worker each")
    print(tabulate(rows, headers=["judging", "ms per test (whole command / N)", "ms per additional test", "ratio"],
                   tablefmt="github"))
    print("ratio: the peer's additional test against ours")
    for note in notes:
        print(f"note: {note}")


if __name__ == "__main__":
    main()
