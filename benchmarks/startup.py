#!/usr/bin/env python3
"""Benchmark the judge's start-up: grading a Python solution on its examples, against running the
solution by hand once per example, in the same run on the same machine.

  - by hand: a fresh `python3` per example that imports the solution file and calls the method (the
    loop a contestant would write), one after the other;
  - the judge: `judge.py grade FILE --examples`, a fresh process from the command line to the table
    (imports, the problem, a zygote, the tests, the history);
  - the judge's imports alone: `python -X importtime` of the same command, summed over its top-level
    imports (what start-up costs before any work).
Both run with compiled bytecode, as an installed judge has it (in a temporary PYTHONPYCACHEPREFIX, so
the checkout stays clean), and a compiler-version cache of their own, warmed by a first run.
Run: python benchmarks/startup.py [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tabulate import tabulate  # noqa: E402

from tcjudge.problems.loader import load_problem  # noqa: E402

PROBLEM = load_problem(ROOT / "problems" / "ellyscheckers")
SOLUTION = ROOT / "solutions" / "ellyscheckers" / "accepted" / "reference.py"
BY_HAND = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("solution", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
print(json.dumps(getattr(module.{cls}(), "{method}")(*json.loads(sys.argv[2]))))
""".format(cls=PROBLEM.class_name, method=PROBLEM.method)


def by_hand(env: dict) -> float:
    """Seconds of running the solution by hand on every example, one fresh interpreter each."""
    started = time.perf_counter()
    for test in PROBLEM.examples:
        done = subprocess.run([sys.executable, "-c", BY_HAND, str(SOLUTION), json.dumps(list(test.args))],
                              capture_output=True, text=True, env=env, check=True)
        assert json.loads(done.stdout) == test.expected, (test.name, done.stdout)
    return time.perf_counter() - started


def judge_command(history: Path) -> list[str]:
    return [sys.executable, str(ROOT / "judge.py"), "--history", str(history), "grade", str(SOLUTION), "--examples"]


def judge(env: dict, history: Path) -> float:
    """Seconds of `judge.py grade FILE --examples`, from start to exit."""
    started = time.perf_counter()
    done = subprocess.run(judge_command(history), capture_output=True, text=True, env=env, cwd=ROOT)
    elapsed = time.perf_counter() - started
    assert done.returncode == 0 and f"passed {len(PROBLEM.examples)}/" in done.stdout, done.stdout + done.stderr
    return elapsed


def import_ms(env: dict, history: Path) -> tuple[float, int]:
    """(milliseconds, modules) that `-X importtime` reports for the judge's imports during a grade."""
    done = subprocess.run([sys.executable, "-X", "importtime", *judge_command(history)[1:]],
                          capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    lines = [line.split("|") for line in done.stderr.splitlines() if line.startswith("import time:")][1:]
    top = [int(cumulative) for _, cumulative, name in lines if not name.startswith("  ")]  # depth 0
    return sum(top) / 1e3, len(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="runs of each, interleaved (the median is shown)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="judge-startup-") as scratch:
        env = {key: value for key, value in os.environ.items() if key not in ("PYTHONDONTWRITEBYTECODE", "JUDGE_CLUSTER")}
        env |= {"PYTHONPYCACHEPREFIX": str(Path(scratch) / "pycache"), "JUDGE_CACHE": str(Path(scratch) / "cache")}
        history = Path(scratch) / "history.sqlite"
        by_hand(env), judge(env, history)  # bytecode compiled, compiler versions asked: as on a second run
        hand, ours = [], []
        for _ in range(options.rounds):
            hand.append(by_hand(env))
            ours.append(judge(env, history))
        imports, modules = import_ms(env, history)
    hand_s, ours_s = statistics.median(hand), statistics.median(ours)
    examples = len(PROBLEM.examples)
    rows = [
        [f"grade --examples ({examples} examples of {PROBLEM.slug})", f"{ours_s:.3f} s",
         f"{hand_s:.3f} s by hand ({examples} x fresh python3)", f"{ours_s / hand_s:.2f}x by hand (goal <= 1.0)"],
        ["the judge's imports in that run", f"{imports:.0f} ms, {modules} modules", "", f"{imports / 1e3 / ours_s:.0%} of the run"],
    ]
    print(f"Machine: {platform.node()}, {platform.system()} {platform.release()}, {platform.machine()}, "
          f"{len(os.sched_getaffinity(0))} cores, Python {platform.python_version()}, load {os.getloadavg()[0]:.2f}")
    print(tabulate(rows, ["figure", "judge", "baseline", "ratio"], tablefmt="github"))


if __name__ == "__main__":
    main()
