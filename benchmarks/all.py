#!/usr/bin/env python3
"""Every speed benchmark docs/performance.md quotes, in one run on one machine, one after the other (never two
at once: each measures wall time). Each benchmark prints its own table, every line with its ratio
against a baseline measured in the same run; this prints them under one heading with the machine and
its load before and after, so a reader can tell an idle run from a busy one.

  --write    also write the output into docs/performance.md, between the lines
             `<!-- benchmarks:begin -->` and `<!-- benchmarks:end -->` (--readme: the old name, when the
             tables were in the README)
  --quick    fewer rounds (for trying the script, not for figures)
  --venv DIR where peers.py installs problemtools and BAPCtools when they are not on PATH

Run: python benchmarks/all.py [--write] [--quick] [--venv DIR]
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TABLES = HERE.parent / "docs" / "performance.md"
BEGIN, END = "<!-- benchmarks:begin -->", "<!-- benchmarks:end -->"


def benchmarks(quick: bool, venv: Path | None) -> list[tuple[str, list[str]]]:
    """(heading, the script and its arguments), in the order docs/performance.md shows them."""
    peers = ["--install"] + (["--venv", str(venv)] if venv else [])
    return [
        ("Start-up: `grade --examples` against running the solution by hand",
         ["startup.py", "--rounds", "3" if quick else "15"]),
        ("Per test: the judge's own cost, -j1 and -j2, and the accuracy of its figures",
         ["overhead.py"] + (["--tests", "100", "--baseline-tests", "20"] if quick else [])),
        ("Languages: C++ and Java against Python, per trivial test",
         ["languages.py", "--tests", "30" if quick else "200"]),
        ("Against the peer judges, 20 tests", ["peers.py", "--tests", "20", *peers]),
        ("Against the peer judges, 200 tests", ["peers.py", "--tests", "200", *peers]),
        ("Interactive problems: the round trip per test against problemtools",
         ["interactive.py", "--tests", "10" if quick else "50", *peers]),
        ("On a Dask cluster against a local pool", ["cluster.py"] + (["--rounds", "20"] if quick else [])),
    ]


def machine() -> str:
    return f"{platform.node()}, {platform.system()} {platform.release()}, {os.cpu_count()} cores, " \
           f"Python {platform.python_version()}"


def run_all(quick: bool, venv: Path | None) -> tuple[str, int]:
    """The combined text, and how many benchmarks failed."""
    load_before = os.getloadavg()[0]
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    parts, failed = [], 0
    for heading, (script, *args) in benchmarks(quick, venv):
        print(f"judge: benchmark {script} {' '.join(args)} ...", file=sys.stderr, flush=True)
        begun = time.perf_counter()
        done = subprocess.run([sys.executable, str(HERE / script), *args], capture_output=True, text=True)
        took = time.perf_counter() - begun
        text = done.stdout.strip()
        if done.returncode != 0:
            failed += 1
            tail = "\n".join(done.stderr.strip().splitlines()[-5:])
            text = f"{text}\n(failed with exit status {done.returncode}: {tail})".strip()
        parts.append(f"**{heading}** (`python benchmarks/{script}{' ' if args else ''}{' '.join(args)}`, "
                     f"{took:.0f} s)\n\n```\n{text}\n```")
    header = (f"Measured {started} by `python benchmarks/all.py`, one benchmark after the other on {machine()}; "
              f"load {load_before:.2f} before, {os.getloadavg()[0]:.2f} after.")
    return "\n\n".join([header, *parts]) + "\n", failed


def write_tables(text: str) -> None:
    page = TABLES.read_text()
    if BEGIN not in page or END not in page:
        raise SystemExit(f"judge: error: {TABLES}: no {BEGIN} ... {END} block to write into")
    head, rest = page.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    TABLES.write_text(f"{head}{BEGIN}\n{text}{END}{tail}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", "--readme", action="store_true", dest="write",
                        help="write the tables into docs/performance.md")
    parser.add_argument("--quick", action="store_true", help="fewer rounds: to try the script, not for figures")
    parser.add_argument("--venv", type=Path, help="where peers.py installs problemtools and BAPCtools")
    options = parser.parse_args()
    if "--readme" in sys.argv[1:]:
        print("all.py: warning: --readme is deprecated: the tables are in docs/performance.md; use --write",
              file=sys.stderr)
    text, failed = run_all(options.quick, options.venv)
    print(text)
    if options.write:
        write_tables(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
