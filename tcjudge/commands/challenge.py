"""`judge challenge`: TopCoder's challenge phase: does the solution survive this input?."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .. import languages
from ..errors import JudgeInputError
from ..problems.catalog import Catalog, display_path
from ..verdicts import Verdict
from .common import EXIT_FAILED, EXIT_OK, add_jobs, solution_and_problem

HELP = "TopCoder's challenge phase: does the solution survive this input?"
ORDER = 8  # its place in --help


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("solution", type=Path, help="the challenged solution")
    parser.add_argument("--args", required=True, metavar="JSON", dest="challenge_args",
                           help='the input, e.g. \'{"values": [1, 2], "factor": 3}\'')
    parser.add_argument("--problem", metavar="SLUG", help="the problem (default: found from the class name)")
    parser.add_argument("--add", action="store_true", help="keep a successful challenge in tests/parser.yaml")
    add_jobs(parser)


def run(options) -> int:
    from ..setter.challenge import challenge_input
    from ..setter.keep import keep_test
    from ..setter.stress import Duel
    from ..setter.validate import reference_path

    catalog = Catalog(options.problems, options.solutions, languages.EXTENSIONS)
    problem = solution_and_problem(catalog, options.solution, options.problem)
    values = challenge_input(problem, options.challenge_args)
    with Duel(problem, options.solution, reference_path(catalog, problem.slug), options.jobs,
              source_limit=options.source_limit * 1024) as duel:
        failure = duel.fight(values)
    if failure and failure.verdict is Verdict.IE:
        raise JudgeInputError(f"cannot judge this challenge: {failure.message}")
    if not failure:
        print(f"challenge unsuccessful: {display_path(options.solution)} survives (returns the expected value)")
        return EXIT_OK
    print(f"challenge succeeded: {failure.verdict}: {failure.message}")
    print(f"expected: {json.dumps(failure.expected)}\ngot: {json.dumps(failure.got)}")
    if options.add:
        path, name = keep_test(problem, "challenge.yaml", "challenge", values, failure.expected,
                               f"successful challenge: {failure.verdict} from {options.solution.name}")
        print(f"kept as test {name} in {display_path(path)}")
    return EXIT_FAILED
