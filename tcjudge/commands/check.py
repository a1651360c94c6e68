"""`judge check`: every stored solution must get its expected verdict."""

from __future__ import annotations

import argparse
from functools import partial
import time
from pathlib import Path

from ..engine.results import GradeResult
from .. import languages
from ..problems.catalog import Catalog, display_path
from ..reports.tables import changes_section, check_row, check_table, left_out_note, reused_note, run_json
from ..text import count, safe_text
from ..runs import (judge_runs, may_pass_with_extra_time, settled_runs, with_extra_time,
                    worker_count)
from .common import add_grading_options, fresh_with_note, refuse_read_only, save_json, save_junit, stored_exit

HELP = "every stored solution must get its expected verdict"
ORDER = 2  # its place in --help


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("slugs", nargs="*", metavar="SLUG", help="only these problems (default: all)")
    parser.add_argument("--all-tests", action="store_true",
                       help="run every test (default: stop each solution at its first failing test)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the results as JSON")
    parser.add_argument("--junit", type=Path, metavar="FILE",
                       help="also write JUnit XML (one testsuite per solution)")
    add_grading_options(parser)


def run(options) -> int:
    started = time.monotonic()  # (the time-limit grading included: it is the command's too)
    refuse_read_only(options)
    catalog = Catalog(options.problems, options.solutions, languages.EXTENSIONS)
    # (a problem that does not load is left out: catalog.broken)
    runs = settled_runs(options, catalog, stop_on_failure=not options.all_tests, verdicts_only=options.hide_expected)
    print(f"Checking {count(len(runs), 'stored solution')} of {count(len({run.problem.slug for run in runs}), 'problem')} "
          f"with {worker_count(options)} worker(s)")
    for problem in sorted({run.problem.slug: run.problem for run in runs}.values(), key=lambda p: p.slug):
        if problem.time_limit_from:  # a package: where its time limit comes from
            print(f"  {problem.slug}: time limit {problem.time_limit_text}")

    def line(result: GradeResult) -> str:
        why = result.mismatch
        mark = "ok" if why is None else "SLOW" if may_pass_with_extra_time(result) else "MISMATCH"
        reason = f": {safe_text(why)}" if why else ""
        return f"  {mark:8} {display_path(result.solution)}: {result.outcome} (expected {result.expectation}){reason}"

    judged = judge_runs(options, "check", runs, fresh_with_note(options), line, then=partial(with_extra_time, options))
    results = judged.results
    print(check_table([check_row(result) for result in results]))
    matched = sum(result.matched for result in results)
    print(f"{matched} of {count(len(results), 'solution')} got their expected verdict "
          f"({time.monotonic() - started:.1f} s{reused_note(judged)}){left_out_note(catalog.faults, catalog.broken)}")
    print(changes_section(judged.outcome))
    if options.json:
        save_json(options.json, run_json(judged, catalog.faults, catalog.broken))
    if options.junit:
        save_junit(options.junit, results, stored=True, left_out=catalog.faults)
    return stored_exit(catalog, matched, len(results))
