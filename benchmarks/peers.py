#!/usr/bin/env python3
"""One Kattis/ICPC package judged by this judge and by the peer judges, same solution, same machine,
one run: milliseconds per test for each, and the ratios.

  - ours: `judge.py grade` on the package at -j1 and at -j2, and the warm worker's round trip per
    test (its median);
  - fresh python3: `python3 add.py < test.in` once per test (how the peers run Python), median;
  - problemtools: `verifyproblem PKG -p submissions -j 1` (Kattis), when installed;
  - BAPCtools: `bt run -j 1` in the package (it reads only the 2025-09 format, so its copy of the
    package differs in `problem_format_version` alone), when installed.

Whole-command figures include each tool's start-up (and the peers' compiling of their default
output validator), so every command runs on the package with N tests and with 1 test: the
difference over N - 1 is the cost of one more test. Each whole command's time is the median of
--reps runs (default 3), one after the other. Every tool runs the solution with the same
CPython (a `python3` first on PATH that is this interpreter; the peers' own configuration would pick
PyPy or a pyenv shim).

Run: python benchmarks/peers.py [--tests N] [--reps R] [--install] [--venv DIR]
  --install  install problemtools and bapctools from PyPI into a virtual environment (--venv, by
             default a temporary one) when they are not on PATH
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tabulate import tabulate  # noqa: E402

from tcjudge.engine.worker import Worker  # noqa: E402

SOLUTION = "import sys\na, b = map(int, sys.stdin.readline().split())\nprint(a + b)\n"
PROBLEM_YAML = """problem_format_version: {version}
type: pass-fail
name:
  en: Hello Add
uuid: {uuid}
limits:
  time_limit: 1.0
  memory: 512
"""
STATEMENT = "\\problemname{Hello Add}\nPrint the sum of two integers.\n"
PYTHON_LANGUAGE = """python3:
    name: 'Python 3 (CPython)'
    priority: 850
    files: '*.py'
    compile: 'python3 -m py_compile {files}'
    run: 'python3 "{mainfile}"'
"""
PEERS = {"verifyproblem": "problemtools", "bt": "bapctools"}  # each tool and the PyPI package that has it


def write_package(folder: Path, tests: int, version: str) -> Path:
    """A package with one sample and `tests` - 1 secret tests, and one accepted submission."""
    package = folder / "hello"
    for sub in ("statement", "data/sample", "data/secret", "submissions/accepted"):
        (package / sub).mkdir(parents=True, exist_ok=True)
    unique = uuid.uuid5(uuid.NAMESPACE_URL, f"judge-peers-{tests}-{version}")  # BAPCtools keys its cache by it
    (package / "problem.yaml").write_text(PROBLEM_YAML.format(version=version, uuid=unique))
    (package / "statement" / "problem.en.tex").write_text(STATEMENT)
    (package / "submissions" / "accepted" / "add.py").write_text(SOLUTION)
    for index in range(tests):
        where = package / "data" / ("sample" if index == 0 else "secret") / f"{index:04}"
        where.with_suffix(".in").write_text(f"{index} {index * 7}\n")
        where.with_suffix(".ans").write_text(f"{index * 8}\n")
    (folder / "languages.yaml").write_text(PYTHON_LANGUAGE)  # BAPCtools reads the contest's languages
    return package


def timed(command: list[str], cwd: Path, env: dict) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=3600)
    elapsed = time.perf_counter() - started
    output = done.stdout + done.stderr
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {output.strip()[-400:]}")
    return elapsed, output


def per_test(run, tests: int, reps: int = 1) -> tuple[float, float]:
    """(ms per test over the whole command, ms per additional test): the command on N and on 1 test,
    each the median of `reps` runs."""
    whole = statistics.median(run(tests) for _ in range(reps))
    single = statistics.median(run(1) for _ in range(reps))
    return whole / tests * 1000, (whole - single) / (tests - 1) * 1000


def ours_worker_median(package: Path, tests: int) -> float:
    """Median round trip of one test through a warm worker (what `grade` pays per test)."""
    worker = Worker()
    try:
        response = worker.load(("bench",), package / "submissions" / "accepted" / "add.py", None, None, 1.0, 512,
                               check=False, mode="stdin")
        assert response["ok"], response
        inputs = sorted((package / "data").rglob("*.in"))
        times = []
        for path in inputs:
            data = path.read_bytes()
            started = time.perf_counter()
            facts = worker.run_input(data)
            times.append(time.perf_counter() - started)
            assert facts.answer.split() == path.with_suffix(".ans").read_bytes().split(), facts
        return statistics.median(times) * 1000
    finally:
        worker.close()


def fresh_python_median(package: Path, python: str) -> float:
    solution = package / "submissions" / "accepted" / "add.py"
    times = []
    for path in sorted((package / "data").rglob("*.in")):
        with open(path, "rb") as given:
            started = time.perf_counter()
            subprocess.run([python, str(solution)], stdin=given, capture_output=True, check=True)
            times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def find_peer_tools(install: bool, venv: Path | None,
                    wanted: tuple[str, ...] = tuple(PEERS)) -> tuple[dict[str, str], list[str]]:
    """Paths of the `wanted` tools (verifyproblem, bt: from PATH, or installed on request); notes on
    what is missing."""
    tools = {name: shutil.which(name) for name in wanted}
    packages = [PEERS[name] for name in wanted]
    notes = []
    if install and not all(tools.values()):
        venv = venv or Path(tempfile.mkdtemp(prefix="judge-peers-venv-"))
        if not (venv / "bin" / "python").exists():
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        done = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", *packages], capture_output=True, text=True)
        if done.returncode != 0:
            notes.append(f"pip install {' '.join(packages)} failed: {done.stderr.strip().splitlines()[-1:]}")
        for name in tools:
            tools[name] = tools[name] or (str(venv / "bin" / name) if (venv / "bin" / name).exists() else None)
    for name, path in tools.items():
        if path is None:
            notes.append(f"{name} not found (pass --install to install {' and '.join(packages)} from PyPI)")
    return tools, notes


def peer_environment(scratch: Path, python: str) -> dict:
    """The environment every tool runs in: `python3` first on PATH is `python` (this interpreter), and
    problemtools' languages.yaml runs Python with it (its default is PyPy)."""
    shims = scratch / "bin"
    shims.mkdir(exist_ok=True)
    if not (shims / "python3").exists():
        (shims / "python3").symlink_to(python)
    (scratch / "xdg" / "problemtools").mkdir(parents=True, exist_ok=True)
    (scratch / "xdg" / "problemtools" / "languages.yaml").write_text(PYTHON_LANGUAGE)
    return dict(os.environ, PATH=f"{shims}{os.pathsep}{os.environ.get('PATH', '')}", XDG_CONFIG_HOME=str(scratch / "xdg"))


def print_machine(what: str) -> None:
    """The line that says where and under what load the figures were taken."""
    print(f"Machine: {platform.node()}, {platform.system()} {platform.release()}, {platform.machine()}, "
          f"{os.cpu_count()} cores, Python {platform.python_version()}, load {os.getloadavg()[0]:.2f}; {what}")


def peer_options(doc: str, tests: int, peers: str) -> argparse.Namespace:
    """A peer benchmark's command line: --tests (default `tests`), --install (`peers`), --venv."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--tests", type=int, default=tests, help=f"tests in the package (default {tests})")
    parser.add_argument("--reps", type=int, default=3, help="runs of each whole command; its median counts (default 3)")
    parser.add_argument("--install", action="store_true", help=f"pip install {peers} into a virtual environment")
    parser.add_argument("--venv", type=Path, help="where --install puts them (default: a temporary folder)")
    return parser.parse_args()


def main() -> None:
    options = peer_options(__doc__, 100, "the peers")
    python = os.path.realpath(sys.executable)
    tools, notes = find_peer_tools(options.install, options.venv)

    with tempfile.TemporaryDirectory(prefix="judge-peers-") as scratch:
        scratch = Path(scratch)
        env = peer_environment(scratch, python)

        def package(tests: int, version: str) -> Path:
            folder = scratch / f"{version}-{tests}"
            return folder / "hello" if folder.exists() else write_package(folder, tests, version)

        def ours(tests: int, jobs: int = 1) -> float:
            return timed([sys.executable, str(ROOT / "judge.py"), "--problems", str(package(tests, "2023-07-draft").parent),
                          "grade", str(package(tests, "2023-07-draft") / "submissions" / "accepted" / "add.py"),
                          "--problem", "hello", "-j", str(jobs)], ROOT, env)[0]

        def problemtools(tests: int) -> float:
            return timed([tools["verifyproblem"], str(package(tests, "2023-07-draft")), "-p", "submissions",
                          "-j", "1"], scratch, env)[0]

        def bapctools(tests: int) -> float:
            return timed([tools["bt"], "run", "--no-bar", "-j", "1"], package(tests, "2025-09"), env)[0]

        rows = []
        big = package(options.tests, "2023-07-draft")
        worker_ms = ours_worker_median(big, options.tests)
        fresh_ms = fresh_python_median(big, python)
        whole, extra = per_test(ours, options.tests, options.reps)
        whole_j2, extra_j2 = per_test(lambda tests: ours(tests, 2), options.tests, options.reps)
        rows.append(["this judge: worker round trip (median)", f"{worker_ms:.2f}", "", "1.0x"])
        rows.append(["this judge: `judge.py grade -j1`", f"{whole:.2f}", f"{extra:.2f}", ""])
        rows.append(["this judge: `judge.py grade -j2`", f"{whole_j2:.2f}", f"{extra_j2:.2f}",
                     f"{whole / whole_j2:.2f}x the -j1 speed, whole (goal: >= 1.4 at 200 tests, >= 1.0 at 20)"])
        rows.append(["fresh `python3 add.py < in` per test (median)", f"{fresh_ms:.2f}", "",
                     f"{fresh_ms / worker_ms:.1f}x slower"])
        for label, name, run in (("problemtools `verifyproblem -p submissions -j 1`", "verifyproblem", problemtools),
                                 ("BAPCtools `bt run -j 1`", "bt", bapctools)):
            if not tools[name]:
                rows.append([label, "not run", "", ""])
                continue
            try:
                peer_whole, peer_extra = per_test(run, options.tests, options.reps)
            except (RuntimeError, subprocess.TimeoutExpired) as err:
                notes.append(f"{name} failed: {err}")
                rows.append([label, "failed", "", ""])
                continue
            rows.append([label, f"{peer_whole:.2f}", f"{peer_extra:.2f}",
                         f"{peer_whole / whole:.1f}x slower whole"
                         + (" (goal: >= 10 at 200 tests)" if name == "verifyproblem" else "")
                         + f", {peer_extra / extra:.1f}x per added test"])

    print_machine(f"{options.tests} tests of one trivial stdin problem (read two integers, print the sum), one worker each")
    print(tabulate(rows, headers=["judging", "ms per test (whole command / N)", "ms per additional test",
                                  "ratio"], tablefmt="github"))
    print("ratio: fresh python3 against the worker's round trip; -j2's whole command against -j1's; each peer's "
          f"whole command, and its additional test, against ours at -j1; whole commands: medians of {options.reps} runs")
    for note in notes:
        print(f"note: {note}")


if __name__ == "__main__":
    main()
