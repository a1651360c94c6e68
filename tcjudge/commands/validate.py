"""`judge validate`: every fault of a problem folder at once, then the proofs of its test data."""

from __future__ import annotations

import argparse
from functools import partial

from .. import languages
from ..errors import JudgeInputError
from ..problems.catalog import Catalog
from ..problems.loader import kind_of
from ..text import count
from .common import EXIT_FAILED, EXIT_OK, add_jobs, positive

HELP = "every fault of a problem folder at once, then the proofs of its test data"
ORDER = 6  # its place in --help


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("slugs", nargs="*", metavar="SLUG", help="only these problems (default: all)")
    parser.add_argument("--random-cases", type=positive, default=300, metavar="N",
                          help="random inputs on which the reference and verify.py must agree (default: 300)")
    parser.add_argument("--strict", action="store_true",
                          help="warnings fail too (exit 1), as problemtools' -werror")
    parser.add_argument("--generate", action="store_true",
                        help="first run each problem's generator.py (as `generate` does) and write its test files")
    add_jobs(parser)
    parser.set_defaults(cluster=None)  # (a package's submissions are graded on this machine: _grade_submissions)


def run(options) -> int:
    from ..reports.progress import Phases
    from ..setter.validate import validate_problem

    catalog = Catalog(options.problems, options.solutions, languages.EXTENSIONS)
    slugs = options.slugs or catalog.slugs()
    if not slugs:  # validating nothing proves nothing: never "0 of 0 problems valid"
        raise JudgeInputError(f"no problems here to validate (`{options.prog} new SLUG ...` starts one)",
                              catalog.problems_dir)
    known = set(catalog.slugs())
    for slug in slugs:
        if slug not in known and not (catalog.problems_dir / slug).is_dir():
            raise JudgeInputError(f"unknown problem {slug!r} (known: {', '.join(sorted(known)) or 'none'})")
    failed = 0
    if options.generate:
        from .generate import generate_all

        generate_all(catalog, [slug for slug in slugs if (catalog.problems_dir / slug / "generator.py").is_file()])
    for number, slug in enumerate(slugs, 1):
        with Phases(f"validating {slug}" + (f" ({number} of {len(slugs)})" if len(slugs) > 1 else "")) as progress:
            findings = validate_problem(catalog, slug, options.jobs, options.random_cases,
                                        options.source_limit * 1024, options.prog, progress)
        if not kind_of(catalog.problems_dir / slug).own_format:
            _grade_submissions(options, catalog, slug, findings)
        for severity, found in (("error", findings.errors), ("warning", findings.warnings)):
            for item in found:
                where = f"{item.path}:{item.line}" if item.line else str(item.path or catalog.problems_dir / slug)
                print(f"{where}: {severity}: {item.message}")
        counts = f"{count(len(findings.errors), 'error')}, {count(len(findings.warnings), 'warning')}"
        print(f"{slug}: {'ok' if not findings else counts}", flush=True)
        failed += bool(findings.errors or (options.strict and findings.warnings))
    print(f"{len(slugs) - failed} of {count(len(slugs), 'problem')} valid" + (" (--strict: warnings fail)" if options.strict else ""))
    return EXIT_FAILED if failed else EXIT_OK


def _grade_submissions(options, catalog: Catalog, slug: str, findings) -> None:
    """Every submission of a package that loads, accepted ones included (verifyproblem grades them
    all), graded as `check` grades them: at its computed time limit where it gives none, by the run
    owner (results reused and recorded, progress on stderr); each that does not get what it must is
    an error, as is each that check leaves out for a fault of its own."""
    from ..runs import judge_runs, settle_time_limit, stored_runs, with_extra_time

    try:
        problem = catalog.problem(slug)
    except JudgeInputError:  # (its faults are the findings already)
        return
    settle_time_limit(options, catalog, problem)
    try:
        runs = stored_runs(catalog, [slug], stop_on_failure=True)
    except JudgeInputError as err:  # none to grade: nothing shows the package is solvable
        findings.warnings.append(err)
        return
    for path, why in catalog.faults.items():
        findings.error(f"left out by check: {why}", path)
    for result in judge_runs(options, "validate", runs, False, then=partial(with_extra_time, options)).results:
        if not result.matched:
            why = result.mismatch
            findings.error(f"gets {result.outcome}, expected {result.expectation}" + (f": {why}" if why else ""),
                           result.solution)
