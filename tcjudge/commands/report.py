"""`judge report`: grade every stored solution on every test; write reports/."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from ..engine.results import GradeResult
from .. import languages
from ..errors import JudgeInputError
from ..problems.catalog import Catalog, display_path
from ..reports.history import History
from ..reports.pages import write_index
from ..reports.tables import (changes_section, check_row, check_table, internal_errors, left_out_note, reused_note,
                              run_json, write_report)
from ..text import count
from ..runs import judge_runs, settled_runs
from .common import add_grading_options, fresh_with_note, make_folder, refuse_read_only, save_json, stored_exit

HELP = "grade every stored solution on every test; write reports/"
ORDER = 3  # its place in --help


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("slugs", nargs="*", metavar="SLUG", help="only these problems (default: all)")
    parser.add_argument("--out", type=Path, metavar="DIR",
                        help="where to write the reports (default: reports/ beside the problems folder)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the results as JSON")
    add_grading_options(parser)


def run(options) -> int:
    started = time.monotonic()  # (the time-limit grading included: it is the command's too)
    refuse_read_only(options)
    catalog = Catalog(options.problems, options.solutions, languages.EXTENSIONS)
    # (a problem that does not load is left out: catalog.broken)
    runs = settled_runs(options, catalog, stop_on_failure=False, verdicts_only=options.hide_expected)
    make_folder(options.out)  # before grading: a bad --out costs one line, not a whole run
    judged = judge_runs(options, "report", runs, fresh_with_note(options))
    by_problem: dict[str, list[GradeResult]] = {}
    for result in judged.results:
        by_problem.setdefault(result.problem.slug, []).append(result)
    try:
        for slug, group in by_problem.items():
            print(f"\n{group[0].problem.name} ({slug})")
            print(check_table([check_row(result) for result in group]))
            if errors := internal_errors(group):
                print(errors)
            changes = [c for c in judged.outcome.changes if c.problem == slug]
            for path in write_report(options.out, slug, group, changes, options.hide_expected, judged.outcome.run_id):
                print(f"wrote {display_path(path)}")
        history = History(options.history)
        try:
            print(f"wrote {display_path(write_index(options.out, history))}")
        finally:
            history.close()
    except OSError as err:
        raise JudgeInputError(f"cannot write the report: {err.strerror}", err.filename or options.out) from None
    matched = sum(result.matched for result in judged.results)
    print(f"\n{count(len(judged.results), 'solution')} graded in {time.monotonic() - started:.1f} s{reused_note(judged)}; "
          f"{matched} got their expected verdict{left_out_note(catalog.faults, catalog.broken)}")
    print(changes_section(judged.outcome))
    if options.json:
        save_json(options.json, run_json(judged, catalog.faults, catalog.broken))
    return stored_exit(catalog, matched, len(judged.results))
