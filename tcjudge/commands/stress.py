"""`judge stress`: random inputs until a solution disagrees with the reference; the smallest such input."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .. import languages
from ..errors import JudgeInputError
from ..problems.catalog import Catalog, display_path
from ..verdicts import Verdict
from .common import EXIT_FAILED, EXIT_OK, add_jobs, at_least, save_json, solution_and_problem

HELP = "random inputs until a solution disagrees with the reference; the smallest such input"
ORDER = 7  # its place in --help


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("solution", type=Path, help="the solution to test")
    parser.add_argument("--problem", metavar="SLUG", help="the problem (default: found from the class name)")
    parser.add_argument("--against", type=Path, metavar="REF",
                        help="the trusted solution (default: the problem's accepted/reference.py)")
    parser.add_argument("--time", type=at_least(0, inclusive=False), default=10.0, metavar="SECONDS",
                        help="how long to look for a counterexample (default: 10)")
    parser.add_argument("--seed", type=int, metavar="N", help="hypothesis seed, to repeat a run (default: random)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the outcome as JSON")
    parser.add_argument("--add", action="store_true", help="keep the counterexample in tests/parser.yaml")
    add_jobs(parser)


def run(options) -> int:
    from ..setter.keep import keep_test, next_name
    from ..setter.stress import Duel, failure_text, stress
    from ..setter.validate import reference_path

    catalog = Catalog(options.problems, options.solutions, languages.EXTENSIONS)
    problem = solution_and_problem(catalog, options.solution, options.problem)
    against = options.against or reference_path(catalog, problem.slug)
    if not against.is_file():
        raise JudgeInputError("no reference solution to stress against (use --against)", against)
    print(f"Stressing {display_path(options.solution)} against {display_path(against)} on {problem.name} "
          f"({problem.slug}) for {options.time:g} s")
    last_line = [time.monotonic()]

    def tick(cases: int, failure) -> None:  # a line every 10 s, so a long run is never silent
        if time.monotonic() - last_line[0] >= 10:
            last_line[0] = time.monotonic()
            print(f"judge: {cases} cases so far" + (", shrinking a counterexample" if failure else ""), file=sys.stderr,
                  flush=True)

    with Duel(problem, options.solution, against, options.jobs, source_limit=options.source_limit * 1024) as duel:
        result = stress(duel, options.time, options.seed, tick)
    failure = result.failure
    rate = result.cases / result.seconds if result.seconds else 0.0
    print(f"{result.cases} cases in {result.seconds:.1f} s ({rate:.0f}/s), seed {result.seed}")
    if failure:
        print(failure_text(failure, next_name(problem, "stress")))
    else:
        print("no counterexample found")
    if options.json:
        save_json(options.json, result.to_json())
    if failure and options.add:
        if failure.verdict is Verdict.IE:
            raise JudgeInputError(f"not kept: {failure.message}")
        path, name = keep_test(problem, "stress.yaml", "stress", failure.args, failure.expected,
                               f"found by stress: {failure.verdict} from {options.solution.name}")
        print(f"kept as test {name} in {display_path(path)}")
    return EXIT_FAILED if failure else EXIT_OK
