"""What the commands share: exit codes, common options, and writing what they produce (the run
itself is tcjudge/runs.py's)."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import JudgeInputError
from ..formats import versioned

if TYPE_CHECKING:  # the command line imports this module for its exit codes: nothing heavy at start
    from ..engine.results import GradeResult
    from ..problems.catalog import Catalog

EXIT_OK, EXIT_FAILED, EXIT_INPUT_ERROR, EXIT_INTERRUPTED, EXIT_CLOSED_PIPE = 0, 1, 2, 130, 141


def stored_exit(catalog: Catalog, matched: int, graded: int) -> int:
    """check's and report's exit status: 2 when a problem was left out for not loading (the input
    error it was before the others were graded too); 1 when a solution missed its expected verdict or
    a submission was left out for a fault of its own (not shown to get what it must); else 0."""
    if catalog.broken:
        return EXIT_INPUT_ERROR
    return EXIT_OK if matched == graded and not catalog.faults else EXIT_FAILED


def add_grading_options(parser: argparse.ArgumentParser, fresh: bool = True) -> None:
    """What every command that grades stored or given solutions takes: --fresh (for the stored
    ones), --hide-expected, -j and --cluster."""
    if fresh:
        add_fresh(parser)
    add_hide(parser)
    add_jobs(parser)
    add_cluster(parser)


def add_hide(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hide-expected", action="store_true",
                        help="verdicts only, for contests: failing tests show neither the expected value nor the "
                             "input, nor what the solution printed, returned or raised")


def add_jobs(parser: argparse.ArgumentParser) -> None:
    default = len(os.sched_getaffinity(0))
    parser.add_argument("-j", "--jobs", type=positive, default=default, metavar="N",
                        help=f"tests run in parallel on N workers (default: {default}, the number of cores)")


def add_cluster(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cluster", default=os.environ.get("JUDGE_CLUSTER") or None, metavar="ADDRESS",
                        help="grade on the workers of this Dask scheduler, e.g. tcp://host:8786 "
                             "(default: $JUDGE_CLUSTER; see docs/cluster.md)")
    parser.add_argument("--cluster-require-isolation", action="store_true",
                        help="grade only on workers that confine tests as well as this machine")


def add_fresh(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--fresh", action="store_true",
                        help="grade every solution again instead of reusing unchanged results from the history")


def fresh_with_note(options) -> bool:
    """Whether check or report grades every stored solution again: --fresh, or --hide-expected (a
    recorded result keeps the messages contest mode hides, so none is reused; said, since it is slow)."""
    if options.hide_expected and not options.fresh:
        print("judge: note: --hide-expected reuses no recorded result: every stored solution is graded again",
              file=sys.stderr)
    return options.fresh or options.hide_expected


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def at_least(lowest: float, inclusive: bool = True):
    """An argparse type: a finite number from `lowest` on (above it, when not `inclusive`)."""
    def number(text: str) -> float:
        value = float(text)
        if not math.isfinite(value) or value < lowest or (value == lowest and not inclusive):
            raise argparse.ArgumentTypeError(f"must be a number {'from' if inclusive else 'above'} {lowest:g}")
        return value

    number.__name__ = "number"  # argparse names the type in its message: "invalid number value"
    return number


def solution_and_problem(catalog: Catalog, solution: Path, slug: str | None):
    """For stress and challenge, which draw or check inputs from a method problem's declared types."""
    if not solution.is_file():
        raise JudgeInputError("no such file", solution)
    problem = catalog.problem(slug) if slug else catalog.problem_for(solution)
    if problem.kind.program:
        raise JudgeInputError(f"{problem.slug} is a {problem.kind.mode} problem: stress and challenge need declared "
                              "parameter types (a method problem)")
    return problem


def save_junit(path: Path, results: list[GradeResult], stored: bool, left_out: dict[Path, str] | None = None) -> None:
    from ..reports.junit import write_junit

    try:
        write_junit(path, results, stored, left_out)
    except OSError as err:
        raise JudgeInputError(f"cannot write: {err.strerror}", path) from None
    print(f"wrote {path}")


# a disk with less room than this is refused before any grading: a run's record (and its write-ahead log)
# did not fit in 36 KiB, and was lost after every test had been graded (issue 45, an outside tester)
MIN_FREE_BYTES = 4 << 20


def refuse_read_only(options) -> None:
    """Refuse, before anything is graded, a command whose run history or files would land where this
    user may not write, or on a full disk: with a read-only reports/ folder, `check --fresh` graded everything, then
    failed at the record and printed no table (issue 45). os.access sees a read-only mount and an
    immutable file, which root's permissions do not override; a folder not made yet is judged by the
    nearest one above it that is."""
    out = getattr(options, "out", None)
    written = ((options.history, "the run history", "--history FILE"),
               (out and Path(out) / "index.html", "the report's pages", "--out DIR"),
               (getattr(options, "json", None), "the JSON", "--json FILE"),
               (getattr(options, "junit", None), "the JUnit XML", "--junit FILE"),
               (getattr(options, "store", None), "the contest's store", "--store FILE"))
    for path, what, option in written:
        if path is None:
            continue
        folder = Path(path).parent
        while not folder.is_dir() and folder != folder.parent:  # made when written
            folder = folder.parent
        for where in (folder, Path(path)):
            if (where is folder or where.exists()) and not os.access(where, os.W_OK):
                kind = "folder" if where is folder else "file"
                raise JudgeInputError(f"read-only {kind}: {what} ({path}) cannot be written; nothing was graded "
                                      f"({option} names another place)", where)
        free = _free_bytes(folder)
        if free is not None and free < MIN_FREE_BYTES:
            raise JudgeInputError(f"disk full: {free // 1024} KiB free where {what} ({path}) is written, under "
                                  f"{MIN_FREE_BYTES >> 20} MiB; nothing was graded ({option} names another place)", folder)


def _free_bytes(folder: Path) -> int | None:
    """The bytes this user may still write on the disk that holds `folder` (None: not known)."""
    try:
        found = os.statvfs(folder)
    except OSError:
        return None
    return found.f_bavail * found.f_frsize


def make_folder(path: Path) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise JudgeInputError(f"cannot create the output folder: {err.strerror}", path) from None


def save_json(path: Path, data) -> None:
    """Written whole or not at all: a disk that fills mid-write left a truncated file a tool would read
    (issue 45, an outside tester), so it is written beside the path and renamed over it."""
    partial = path.with_name(f".{path.name}.partial")
    try:
        partial.write_text(json.dumps(versioned(data), indent=2) + "\n", encoding="utf-8")
        partial.replace(path)
    except OSError as err:
        partial.unlink(missing_ok=True)
        raise JudgeInputError(f"cannot write: {err.strerror}", path) from None
    print(f"wrote {path}")
