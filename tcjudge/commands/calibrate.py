"""`judge calibrate`: a time limit from the stored solutions' running times."""

from __future__ import annotations

import argparse

from .. import languages
from ..problems.catalog import Catalog, display_path
from .common import EXIT_FAILED, EXIT_OK, add_jobs

HELP = "a time limit from the stored solutions' running times"
ORDER = 9  # its place in --help


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("slug", metavar="SLUG", help="the problem")
    parser.add_argument("--factor", type=float, default=3.0, metavar="X",
                           help="the limit is the slowest accepted CPU time times X, rounded up (default: 3)")
    parser.add_argument("--write", action="store_true", help="set time_limit in problem.yaml")
    add_jobs(parser)


def run(options) -> int:
    from ..setter.calibrate import calibrate

    catalog = Catalog(options.problems, options.solutions, languages.EXTENSIONS)
    problem = catalog.problem(options.slug)
    result = calibrate(catalog, problem, options.jobs, options.factor, options.write, options.source_limit * 1024)
    print(f"slowest accepted run: {result.slowest_ms:.1f} ms CPU ({result.slowest_where})")
    print(f"time limit: {result.limit:g} s (x{options.factor:g}, rounded up); problem.yaml had {problem.time_limit:g} s")
    for line in result.failures:
        print(f"error: {line}")
    for line in result.warnings:
        print(f"warning: {line}")
    if options.write and not result.failures:
        print(f"wrote time_limit: {result.limit:g} to {display_path(problem.path / 'problem.yaml')}")
    return EXIT_FAILED if result.failures else EXIT_OK
