"""This judge against problemtools on real packages: whole command, wall and CPU (issue 48).

    python benchmarks/package_speed.py [--verifyproblem PATH] [--logs DIR] PACKAGE [PACKAGE ...]

Each PACKAGE is a Kattis/ICPC package folder on disk (none is committed: benchmarks/fetch_packages.sh fetches
the public ones the figures in docs/performance.md come from). For each,
in one run on a quiet machine, one after the other, each with a fresh copy of the package, a fresh run
history and an empty compile cache:
- problemtools: `verifyproblem -p submissions PACKAGE` (the submissions part of its check), with a
  languages.yaml (XDG_CONFIG_HOME) that uses this machine's interpreters and JDK: Python 3 as this
  judge runs it, javac without `-source 21` where the JDK is older, C++ at the newest -std g++ knows;
- this judge: `judge check --json` at -j1, at -j2, and again at -j2 with nothing changed (the same
  history and cache: the second run).
Wall time, and CPU time (user + system of the command and everything it started: the benchmark is the
subreaper of every process it starts, and reaps the orphans too), the ratios, and whether each tool
gave every submission its expected verdict. Markdown on stdout, progress on stderr.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

JUDGE = Path(__file__).resolve().parents[1] / "judge.py"
PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> None:
    """Orphans (a zygote's template, a killed compiler's children) are reaped here, so their CPU counts."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def timed(command: list[str], **popen) -> tuple[float, float, subprocess.CompletedProcess]:
    """(wall s, CPU s of the whole tree, the finished command)."""
    before = os.times()
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, **popen)
    wall = time.monotonic() - started
    while True:  # the orphans adopted meanwhile
        try:
            if os.waitpid(-1, 0)[0] == 0:
                break
        except ChildProcessError:
            break
    after = os.times()
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system), done


def problemtools_config(folder: Path) -> Path:
    """XDG_CONFIG_HOME with problemtools/languages.yaml for this machine's interpreters and JDK."""
    javac = subprocess.run(["javac", "-version"], capture_output=True, text=True)
    version = re.search(r"(\d+)", javac.stdout + javac.stderr)
    java_source = f"-source {version.group(1)} " if version else ""
    standard = next((std for std in ("gnu++23", "gnu++20", "gnu++17")
                     if subprocess.run(["g++", f"-std={std}", "-x", "c++", "-fsyntax-only", "-"], input="",
                                       capture_output=True, text=True).returncode == 0), "gnu++17")
    python = os.environ.get("BENCH_PYTHON", "python3")
    config = folder / "problemtools"
    config.mkdir(parents=True, exist_ok=True)
    (config / "languages.yaml").write_text(
        f"python3:\n    compile: '{python} -m py_compile {{files}}'\n    run: '{python} \"{{mainfile}}\"'\n"
        f"java:\n    compile: 'javac {java_source}-encoding UTF-8 -sourcepath {{path}} -d {{path}} {{files}}'\n"
        f"cpp:\n    compile: 'g++ -g -O2 -std={standard} -static -o {{binary}} {{files}} -lrt -Wl,--whole-archive "
        f"-lpthread -Wl,--no-whole-archive'\n")
    return folder


def problemtools(verifyproblem: str, package: Path, scratch: Path) -> dict:
    env = dict(os.environ, XDG_CONFIG_HOME=str(problemtools_config(scratch / "config")))
    wall, cpu, done = timed([verifyproblem, str(package), "-p", "submissions"], env=env, cwd=scratch)
    said = done.stdout + done.stderr
    wrong = [line.strip() for line in said.splitlines() if re.search(r"\b(ERROR|WARNING)\b.*submission", line)]
    good = re.search(r"\b0 errors\b", said) is not None and not wrong
    return {"wall": wall, "cpu": cpu, "expected": good, "said": wrong[:5] or ([] if good else said.splitlines()[-3:])}


def judge(package: Path, history: Path, cache: Path, jobs: int, log: Path | None = None) -> dict:
    report = history.with_suffix(f".j{jobs}.{time.monotonic_ns()}.json")
    env = dict(os.environ, JUDGE_CACHE=str(cache))
    wall, cpu, done = timed([sys.executable, str(JUDGE), "--history", str(history), "--problems", str(package.parent),
                             "check", package.name, "-j", str(jobs), "--json", str(report)], env=env)
    if log:  # (what the judge said: why a run took what it took)
        log.write_text(f"$ judge check {package.name} -j {jobs}: {wall:.1f} s, exit {done.returncode}\n"
                       f"{done.stdout}\n--- stderr\n{done.stderr}")
    solutions = json.loads(report.read_text())["solutions"] if report.is_file() else []
    misses = [f"{Path(s['solution']).name}: {s['verdict']}" for s in solutions if not s["matched"]]
    return {"wall": wall, "cpu": cpu, "expected": bool(solutions) and not misses and done.returncode == 0,
            "said": misses or ([] if solutions else done.stderr.splitlines()[-2:]), "graded": len(solutions)}


def measure(package: Path, verifyproblem: str | None, logs: Path | None = None) -> dict[str, dict]:
    results = {}
    with tempfile.TemporaryDirectory(prefix="package-speed-") as scratch_name:
        scratch = Path(scratch_name)

        def fresh(name: str) -> Path:
            copy = scratch / name / package.name
            shutil.copytree(package, copy)
            return copy

        if verifyproblem:
            print(f"{package.name}: problemtools", file=sys.stderr, flush=True)
            results["problemtools"] = problemtools(verifyproblem, fresh("pt"), scratch)
        for jobs in (1, 2):
            print(f"{package.name}: judge -j{jobs}", file=sys.stderr, flush=True)
            copy = fresh(f"j{jobs}")
            history, cache = scratch / f"j{jobs}.sqlite", scratch / f"cache-j{jobs}"
            results[f"judge -j{jobs}"] = judge(copy, history, cache, jobs, logs and logs / f"{package.name}.j{jobs}.txt")
        print(f"{package.name}: judge -j2, nothing changed", file=sys.stderr, flush=True)
        results["judge -j2 again"] = judge(copy, history, cache, 2, logs and logs / f"{package.name}.j2-again.txt")
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packages", nargs="+", type=Path)
    parser.add_argument("--verifyproblem", default=shutil.which("verifyproblem"),
                        help="problemtools' verifyproblem (default: on PATH; none: this judge alone)")
    parser.add_argument("--logs", type=Path, help="a folder to keep what each judge run printed in")
    options = parser.parse_args()
    if options.logs:
        options.logs.mkdir(parents=True, exist_ok=True)
    become_subreaper()
    load = os.getloadavg()[0]
    print(f"load average at the start: {load:.2f} on {os.cpu_count()} CPUs\n")
    print("| package | tool | wall s | CPU s | wall vs problemtools | every verdict as expected | misses |")
    print("|---|---|---|---|---|---|---|")
    everything = True
    for package in options.packages:
        results = measure(package.resolve(), options.verifyproblem, options.logs)
        base = results.get("problemtools")
        for tool, figures in results.items():
            ratio = f"x{base['wall'] / figures['wall']:.2f} faster" if base and tool != "problemtools" else "-"
            print(f"| {package.name} | {tool} | {figures['wall']:.1f} | {figures['cpu']:.1f} | {ratio} | "
                  f"{'yes' if figures['expected'] else 'no'} | {'; '.join(figures['said'])[:200] or '-'} |", flush=True)
            everything &= figures["expected"]
        j1, j2, again = results["judge -j1"], results["judge -j2"], results["judge -j2 again"]
        print(f"| {package.name} | -j2 against -j1 | x{j1['wall'] / j2['wall']:.2f} | | | | |")
        print(f"| {package.name} | second run against first | {100 * again['wall'] / j2['wall']:.1f}% | | | | |")
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f}")
    return 0 if everything else 1


if __name__ == "__main__":
    sys.exit(main())
