"""Grade folders of fetched Kattis/ICPC packages as their authors expect, and print the table (issue 35).

    python benchmarks/real_packages.py [--history FILE] [-j N] DIR [DIR ...]
    python benchmarks/real_packages.py --speed [--verifyproblem PATH] PACKAGE [PACKAGE ...]

With --speed, each argument is one package, timed against problemtools (benchmarks/package_speed.py:
wall and CPU at -j1, -j2 and a second run with nothing changed; issue 48).

Each DIR is a folder of packages (problemtools' examples/, BAPCtools' test/problems/, a contest
archive). Every package in it (a folder with problem.yaml) is checked on its own with
`judge.py check --problems DIR SLUG --json ...`, so that one refused package stops nothing else.
The table has one row per package: its format, kind, how many submissions were graded, how many got
what their folder, submissions.yaml or @EXPECTED_RESULTS@ expects, and each miss with its reason;
then the notes (submissions left out, and why) and the packages refused, with the judge's line.
Nothing is fetched: the packages must be on disk already (the fetch is the caller's), so this runs
without network. It grades real submissions, which takes minutes: run it by hand, not in CI.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

JUDGE = Path(__file__).resolve().parents[1] / "judge.py"


def packages(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if (p / "problem.yaml").is_file())


def describe(package: Path) -> tuple[str, str]:
    """(format, kind) from problem.yaml, in the words the table uses."""
    try:
        spec = yaml.safe_load((package / "problem.yaml").read_text()) or {}
    except yaml.YAMLError:
        return "?", "?"
    version = str(spec.get("problem_format_version", "legacy"))
    kind = spec.get("type") or ("interactive" if "interactive" in str(spec.get("validation", "")) else "pass-fail")
    return version, " ".join(kind) if isinstance(kind, list) else str(kind)


def check(package: Path, history: Path, jobs: int) -> dict:
    """One package's check: the JSON's solutions, and what the judge said on stderr."""
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "check.json"
        done = subprocess.run([sys.executable, str(JUDGE), "--history", str(history), "--problems",
                               str(package.parent), "check", package.name, "-j", str(jobs), "--json", str(report)],
                              capture_output=True, text=True)
        solutions = json.loads(report.read_text())["solutions"] if report.is_file() else []
    said = [line for line in done.stderr.splitlines() if line.startswith("judge: ") and "/" in line
            and not line.split(":")[1].strip()[:1].isdigit()]
    return {"code": done.returncode, "solutions": solutions, "said": said}


def main() -> int:
    if "--speed" in sys.argv:
        sys.argv.remove("--speed")
        from package_speed import main as speed

        return speed()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--history", type=Path, default=Path(tempfile.gettempdir()) / "real-packages.sqlite")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    options = parser.parse_args()
    rows, notes, total, matched = [], [], 0, 0
    for folder in options.folders:
        for package in packages(folder):
            version, kind = describe(package)
            outcome = check(package, options.history, options.jobs)
            solutions = outcome["solutions"]
            good = sum(s["matched"] for s in solutions)
            misses = [f"{Path(s['solution']).relative_to(package / 'submissions')}: {s['verdict']} "
                      f"({s['mismatch'][:120]})" for s in solutions if not s["matched"]]
            if not solutions:
                misses = [line[7:200] for line in outcome["said"] if "error" in line][:1] or ["refused"]
            rows.append((f"{folder.name}/{package.name}", version, kind, len(solutions), good, misses))
            print(f"{folder.name}/{package.name}: {good} of {len(solutions)}", file=sys.stderr, flush=True)
            notes += [f"{package.name}: {line[7:]}" for line in outcome["said"] if "error" not in line]
            total, matched = total + len(solutions), matched + good
    print("| package | format | kind | submissions | matched | misses (cause) |")
    print("|---|---|---|---|---|---|")
    for name, version, kind, count, good, misses in rows:
        print(f"| {name} | {version} | {kind} | {count} | {good} | {'; '.join(misses) or '-'} |")
    print(f"\n{matched} of {total} graded submissions matched, over {len(rows)} packages.")
    if notes:
        print("\nNotes:\n" + "\n".join(f"- {note}" for note in notes))
    return 0 if matched == total else 1


if __name__ == "__main__":
    sys.exit(main())
