#!/usr/bin/env python3
"""Re-run the examples of the README and docs/usage.md and fail when their output has drifted.

An example is a fenced block whose lines start with `$ judge ...` (or `$ python judge.py ...`), each
followed by what it printed. Every command of a block runs from the checkout as `python judge.py`, in
order, with a run history of the block's own. A block right after `<!-- examples: tour -->` is a
newcomer's tour: it runs in an empty folder, each line through bash (`cd` carries over to the next
line), `judge` being the checkout's. Figures that differ from run to run are compared as placeholders: decimals, durations,
dates and column widths; counts (how many solutions, tests, rows) are compared as they are. A line
`...` in the README stands for any number of lines. A block right after `<!-- examples: slow -->`
runs only with --all; after `<!-- examples: skip -->` (it needs a step by hand), never.
`--file PATH` checks that file's examples alone.

    python docs/readme_examples.py          # the quick examples (what the test suite runs)
    python docs/readme_examples.py --all    # every example, the slow ones included

Exit status 0 when every example still prints what its page shows, 1 otherwise (with a diff).
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "docs" / "usage.md"]
MARKER = re.compile(r"<!-- examples: (slow|skip|tour) -->")
VARYING = [  # (pattern, placeholder): figures that differ between two honest runs
    (re.compile(r"slowest \S+ \("), "slowest <test> ("),
    (re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d"), "<date>"),
    (re.compile(r"Isolation layers on \S+ \S+"), "Isolation layers on <kernel>"),  # doctor's header: the machine's
    (re.compile(r"\b\d+m\d+s\b"), "<duration>"),
    (re.compile(r"\d+(?:\.\d+)+"), "<n>"),
    (re.compile(r"\b\d+ ms\b"), "<n> ms"),
    (re.compile(r"-{2,}"), "--"),
    (re.compile(r"\s+"), " "),
]
PROGRESS = re.compile(r"^judge: (?:\d+/\d+ tests|validating )")  # check's and validate's plain progress, every 10 s
COMMAND_TIMEOUT = 900


@dataclass
class Example:
    line: int  # of the command in its page
    command: str
    shown: list[str] = field(default_factory=list)


@dataclass
class Block:
    line: int
    kind: str  # "quick", "slow", "skip" or "tour"
    examples: list[Example] = field(default_factory=list)


def blocks(text: str) -> list[Block]:
    """A page's example blocks, in order."""
    found, current, fenced, kind = [], None, False, "quick"
    for number, line in enumerate(text.splitlines(), 1):
        marker = MARKER.search(line)
        if marker and not fenced:
            kind = marker.group(1)
        elif line.startswith("```"):
            if fenced and current is not None and current.examples:
                found.append(current)
            if not fenced and line.strip() == "```":
                current = Block(number, kind)
            else:
                current = None
            fenced, kind = not fenced, "quick" if fenced else kind
        elif current is not None:
            if line.startswith("$ "):
                current.examples.append(Example(number, line[2:]))
            elif current.examples:
                current.examples[-1].shown.append(line)
    return found


def argv_of(command: str) -> list[str] | None:
    """`judge ARGS` or `python judge.py ARGS` (optionally after `time`, with a trailing comment) as an argv."""
    words = shlex.split(command, comments=True)
    if words[:1] == ["time"]:
        words = words[1:]
    for named in (["judge"], ["python", "judge.py"]):
        if words[:len(named)] == named:
            return [sys.executable, str(ROOT / "judge.py"), *words[len(named):]]
    return None


def normalised(line: str) -> str:
    for pattern, placeholder in VARYING:
        line = pattern.sub(placeholder, line)
    return line.strip()


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether the printed lines are the shown ones, `...` standing for any lines (timing lines of
    `time` left out)."""
    shown = [normalised(line) for line in shown if not line.startswith(("real ", "user ", "sys "))]
    while shown and not shown[-1]:  # a blank line between two examples of a block
        shown.pop()
    pattern = "".join(r"(?:[^\n]*\n)*?" if line == "..." else re.escape(line) + r"\n" for line in shown)
    return re.fullmatch(pattern, "".join(normalised(line) + "\n" for line in printed)) is not None


def run_block(block: Block, page: str) -> list[str]:
    """Run a block's commands with a history of its own; the drift report (empty when none)."""
    problems = []
    with tempfile.TemporaryDirectory(prefix="readme-examples-") as scratch:
        here = Path(scratch)
        for example in block.examples:
            if block.kind == "tour":
                done, here = _tour_step(example.command, here)
            else:
                argv = argv_of(example.command)
                if argv is None:
                    problems.append(f"{page}:{example.line}: not a judge command: {example.command}")
                    continue
                argv[2:2] = ["--history", str(Path(scratch) / "history.sqlite")]
                done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=COMMAND_TIMEOUT)
            printed = [line for line in (done.stdout + done.stderr).splitlines() if not PROGRESS.match(line)]
            if not matches(example.shown, printed):
                diff = difflib.unified_diff([normalised(line) for line in example.shown],
                                            [normalised(line) for line in printed], page, "now",
                                            lineterm="", n=1)
                problems.append(f"{page}:{example.line}: `{example.command}` prints something else now:\n"
                                + "\n".join(diff))
    return problems


def _tour_step(command: str, here: Path) -> tuple[subprocess.CompletedProcess, Path]:
    """One line of a tour, through bash in folder `here`, with a `judge` command that runs the checkout's
    judge as the installed one does; (what it did, the folder it left bash in)."""
    with tempfile.TemporaryDirectory(prefix="readme-tour-bin-") as bin_folder, tempfile.TemporaryFile() as where:
        judge = Path(bin_folder) / "judge"
        judge.write_text(f"#!{sys.executable}\nfrom tcjudge.launch import run\nrun()\n")
        judge.chmod(0o755)
        env = dict(os.environ, PATH=f"{bin_folder}{os.pathsep}{os.environ.get('PATH', '')}",
                   PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        done = subprocess.run(["bash", "-c", f"{command}\nstatus=$?; pwd >&{where.fileno()}; exit $status"], cwd=here,
                              env=env, capture_output=True, text=True, timeout=COMMAND_TIMEOUT,
                              pass_fds=(where.fileno(),))
        where.seek(0)
        left = where.read().decode().strip()
    return done, Path(left) if left else here


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="the slow examples too")
    parser.add_argument("--file", type=Path, action="append", help="only this page's examples")
    options = parser.parse_args(argv)
    problems, examples = [], 0
    for page in options.file or PAGES:
        name = str(page.resolve().relative_to(ROOT)) if page.resolve().is_relative_to(ROOT) else str(page)
        chosen = [b for b in blocks(page.read_text(encoding="utf-8"))
                  if b.kind in ("quick", "tour") or (options.all and b.kind == "slow")]
        problems += [problem for block in chosen for problem in run_block(block, name)]
        examples += sum(len(block.examples) for block in chosen)
    for problem in problems:
        print(problem)
    print(f"{examples - len(problems)} of {examples} examples print what their pages show")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
