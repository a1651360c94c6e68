"""`judge calibrate`: a time limit from the stored solutions' running times."""

from __future__ import annotations

import argparse

from .. import languages
from ..problems.catalog import Catalog, display_path
from .common import EXIT_FAILED, EXIT_OK, add_jobs, at_least

HELP = "a time limit from the stored solutions' running times"
ORDER = 9  # its place in --help


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("slug", metavar="SLUG", help="the problem")
    parser.add_argument("--factor", type=at_least(1), default=None, metavar="X",
                           help="the limit is the slowest accepted CPU time times X, rounded up (default: 3; "
                                "a Kattis/ICPC package: its own multiplier and resolution)")
    parser.add_argument("--write", action="store_true",
                        help="set time_limit in problem.yaml (a package: write its .timelimit)")
    add_jobs(parser)


def margins(result, factor: float | None, where: str) -> list[tuple[str, str]]:
    """BAPCtools' lines: the slowest AC, the limit, the fastest TLE and how far apart they are.
    `where`: the folder of the stored solutions."""
    from ..setter.calibrate import FACTOR, TIMEOUT

    problem, timing = result.problem, result.problem.timing if factor is None else None
    ac, limit_ms = result.slowest_ms, result.in_force * 1000
    how = (f"x{timing.ac_to_time_limit:g}, rounded up to a multiple of {timing.resolution:g} s, as the package's "
           f"limits say ({timing.words})" if timing else f"x{factor or FACTOR:g}, rounded up")
    had = (f"the package had {problem.time_limit:g} s ({problem.time_limit_from})" if problem.time_limit_from
           else f"problem.yaml had {problem.time_limit:g} s")
    lines = [("slowest AC", f"{ac:.1f} ms CPU ({result.slowest_where})"),
             ("time limit", f"{result.limit:g} s ({how}); {had}")]
    fastest = result.fastest_tle
    if fastest is None:
        stored = "none stored" if not result.tle_stored else "none timed"
        return lines + [("fastest TLE", f"{stored} ({where}/time_limit_exceeded/): "
                                        "nothing says how slow a wrong approach is")]
    at_least = "at least " if fastest.capped else ""
    passes = fastest.ms <= limit_ms  # never when capped: stopped above the limit
    stopped = (f"; stopped at {TIMEOUT:g}x the {result.in_force:g} s limit" if fastest.capped
               else f"; it passes at the {result.in_force:g} s limit" if passes else "")
    lines.append(("fastest TLE", f"{at_least}{fastest.ms:.1f} ms CPU ({fastest.where}{stopped})"))
    if ac > 0:
        apart = (f"the fastest TLE passes under it (x{fastest.ms / limit_ms:.3g} of it)" if passes
                 else f"{at_least}x{fastest.ms / limit_ms:.3g} below the fastest TLE")
        lines.append(("margin", f"the fastest TLE is {at_least}x{fastest.ms / ac:.3g} the slowest AC; the "
                                f"{result.in_force:g} s limit is x{limit_ms / ac:.3g} above the slowest AC and "
                                f"{apart}"))
    return lines


def run(options) -> int:
    from ..setter.calibrate import calibrate

    catalog = Catalog(options.problems, options.solutions, languages.EXTENSIONS)
    problem = catalog.problem(options.slug)
    result = calibrate(catalog, problem, options.jobs, options.factor, options.write, options.source_limit * 1024)
    where = display_path(catalog.solutions_folder(options.slug)) if problem.package else f"solutions/{options.slug}"
    for label, text in margins(result, options.factor, where):
        print(f"{label + ':':<13}{text}")
    for line in result.failures:
        print(f"error: {line}")
    for line in result.warnings:
        print(f"warning: {line}")
    if options.write and not result.failures:
        written = problem.path / (".timelimit" if problem.package else "problem.yaml")
        print(f"wrote time_limit: {result.limit:g} to {display_path(written)}")
    return EXIT_FAILED if result.failures else EXIT_OK
