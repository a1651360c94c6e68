#!/usr/bin/env python3
"""Check the progress line's time left on a real run: `check`, then a full `report`, on a history of
their own (a temporary file: the project's history is left alone), as a coach's first report runs.

Its progress lines (on stderr, every 10 s when it is not a terminal) each say the time elapsed and
about how long is left; the truth is the run's length (its "graded in" figure) minus the
elapsed time. Printed: how many readings between a fifth and four fifths of the run are within 30%
of the truth (issue 18's bar), the worst errors, and the reading at each tenth of the run.

A full report grades every stored solution: about 10 minutes on a 2-core machine. Measure on a quiet
machine: a load that changes during the run moves the truth, which no estimate foresees.
Run: python benchmarks/eta.py [--jobs N] [SLUG ...]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
READING = re.compile(r"judge: .*, (?:(\d+)m)?(\d+)s elapsed, about (?:(\d+)m)?(\d+)s left")
GRADED = re.compile(r"graded in ([\d.]+) s")
WITHIN = 0.3


def judge(history: Path, *arguments: str) -> list[str]:
    return [sys.executable, str(ROOT / "judge.py"), "--history", str(history), *arguments]


def readings(lines: list[str]) -> list[tuple[int, int]]:
    """(seconds elapsed, seconds said to be left) of each progress line."""
    found = []
    for line in lines:
        match = READING.search(line)
        if match:
            minutes, seconds, left_minutes, left_seconds = (int(group or 0) for group in match.groups())
            found.append((minutes * 60 + seconds, left_minutes * 60 + left_seconds))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("slugs", nargs="*", metavar="SLUG", help="only these problems (default: all)")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="workers for both runs (default 2)")
    options = parser.parse_args()
    jobs = ["-j", str(options.jobs)]
    with tempfile.TemporaryDirectory(prefix="judge-eta-") as scratch:
        history = Path(scratch) / "history.sqlite"
        started = time.monotonic()
        checked = subprocess.run(judge(history, "check", *jobs, *options.slugs), capture_output=True, text=True)
        if checked.returncode not in (0, 1):
            print(f"check failed with exit status {checked.returncode}:\n{checked.stderr[-2000:]}", file=sys.stderr)
            return 1
        print(f"check: exit status {checked.returncode}, {time.monotonic() - started:.0f} s")
        done = subprocess.run(judge(history, "report", *jobs, "--out", str(Path(scratch) / "pages"), *options.slugs),
                              capture_output=True, text=True)
        stdout, stderr = done.stdout, done.stderr.splitlines()
        if done.returncode not in (0, 1):
            print(f"report failed with exit status {done.returncode}:\n{done.stderr[-2000:]}", file=sys.stderr)
            return 1
    graded = GRADED.search(stdout)
    if not graded:
        print("the report did not say how long it graded", file=sys.stderr)
        return 1
    length = float(graded.group(1))
    rows = [(elapsed, left, left / (length - elapsed) - 1) for elapsed, left in readings(stderr) if elapsed < length]
    window = [row for row in rows if length / 5 <= row[0] <= length * 4 / 5]
    if not window:
        print(f"the report took {length:.0f} s: too short for readings between a fifth and four fifths", file=sys.stderr)
        return 1
    inside = [row for row in window if abs(row[2]) <= WITHIN]
    print(f"report: graded in {length:.1f} s; {len(rows)} readings, {len(window)} between a fifth and four fifths "
          f"of the run, {len(inside)} within {WITHIN:.0%} of the truth ({len(inside) / len(window):.0%}); errors "
          f"{min(row[2] for row in window):+.0%} .. {max(row[2] for row in window):+.0%}")
    for tenth in range(1, 10):
        later = [row for row in rows if row[0] >= length * tenth / 10]
        if later:
            elapsed, left, error = later[0]
            print(f"  at {tenth}0%: {elapsed} s elapsed, said {left} s left, truth {length - elapsed:.0f} s ({error:+.0%})")
    for elapsed, left, error in window:
        if abs(error) > WITHIN:
            print(f"  outside: {elapsed} s elapsed, said {left} s left, truth {length - elapsed:.0f} s ({error:+.0%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
