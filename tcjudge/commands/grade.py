"""`judge grade`: grade one solution file, test by test.

Its zygotes are started first (engine/spares.py), so that their start overlaps the judge's own
imports and the reading of the problem: this module imports at its top only what that start needs.
"""

from __future__ import annotations

import argparse
import importlib
import time
from pathlib import Path

from ..engine.spares import Spares
from ..errors import JudgeInputError
from .common import EXIT_FAILED, EXIT_OK, add_grading_options, refuse_read_only, save_json, save_junit

HELP = "grade one solution file, test by test"
ORDER = 1  # its place in --help


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("solution", type=Path, help="a .py, .cpp or .java file defining the problem's class (a "
                        "program: also .c, .kt, or a folder of several files, with --problem; for a submit-answer "
                        "problem, a folder of answer files)")
    parser.add_argument("--problem", metavar="SLUG", help="the problem (default: the one whose class the file defines; a program in a "
                        "standard-input problem's own folders: that problem)")
    parser.add_argument("--examples", action="store_true", help="run only the statement's examples")
    parser.add_argument("--test", action="append", metavar="NAME", help="run only this test (repeatable)")
    parser.add_argument("--first-failure", action="store_true", help="stop at the first failing test")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the result as JSON")
    parser.add_argument("--junit", type=Path, metavar="FILE", help="also write the result as JUnit XML")
    parser.add_argument("--show-output", action="store_true",
                       help="show what each failing test printed (stdout and stderr, capped)")
    add_grading_options(parser, fresh=False)


def run(options) -> int:
    refuse_read_only(options)
    solution = options.solution
    if solution.is_dir() and not options.problem:  # a multi-file program, or a submit-answer's answers
        raise JudgeInputError("a folder is graded as one program of several files (or as the answers of a "
                              "submit-answer problem): name its problem with --problem SLUG", solution)
    if not solution.is_file() and not solution.is_dir():
        raise JudgeInputError("no such file", solution)
    started_early = getattr(options, "spares", None)  # launch.py's, as the command line was read: cli.main ends them
    if started_early is not None:
        return _grade(options, solution, started_early)
    with Spares() as spares:
        if not options.cluster:  # the first worker's zygote (the pool starts the others when it needs them)
            spares.start(1)
        return _grade(options, solution, spares)


def _grade(options, solution: Path, spares: Spares) -> int:
    from .. import languages  # imported (with what follows) while the zygotes start
    from ..engine.pool import SolutionRun
    from ..problems.catalog import Catalog, display_path
    from ..runs import judge_runs, settle_time_limit, stored_expectation, worker_count
    from ..text import count
    from ..verdicts import Verdict

    catalog = Catalog(options.problems, options.solutions, languages.EXTENSIONS)
    problem = catalog.problem(options.problem) if options.problem else None
    language = None  # a solution in one of ours is Python 3, C++...: a Python 2 file there is CE, as python3 says
    if not (solution.is_dir() and problem.kind.answers):  # a program (a file, or a folder of several), not answers
        try:
            language = languages.for_path(solution)
        except JudgeInputError as err:
            if not solution.is_dir():
                raise
            raise JudgeInputError(f"a folder: answer files are graded only for a submit-answer problem, and "
                                  f"{problem.slug} is not one; as a program: {err.message}", solution) from None
        if language.toolchain() is None:
            raise JudgeInputError(language.missing_message(), solution)
    problem = problem or catalog.problem_for(solution, options.source_limit * 1024)
    if language is not None and not problem.kind.own_format and (why := language.unsupported(solution)) is not None:
        raise JudgeInputError(f"not graded: {why}", solution)  # a package's author filed it for another dialect
    settle_time_limit(options, catalog, problem)
    tests = problem.examples if options.examples else problem.tests
    if options.test:
        unknown = sorted(set(options.test) - {t.name for t in problem.tests})
        if unknown:
            raise JudgeInputError(f"problem {problem.slug} has no test named {unknown[0]!r}")
        tests = [t for t in tests if t.name in options.test]
    if not tests:  # passing nothing proves nothing: never AC on zero tests
        which = "no examples" if options.examples else "no tests"
        chosen = f" among {', '.join(repr(name) for name in options.test)}" if options.test else ""
        raise JudgeInputError(f"problem {problem.slug} has {which}{chosen}: nothing to grade", problem.path)
    print(f"Grading {display_path(solution)} on {problem.name} ({problem.slug}): {count(len(tests), 'test')}, "
          f"{problem.time_limit_text}, {problem.memory_limit} MiB")
    jobs = worker_count(options)
    started = time.monotonic()
    expected, expected_score = stored_expectation(catalog, problem, solution, tests, options.first_failure)
    catalog.note_faults(only=solution)  # a package's submission whose expectation cannot be read: graded, said why unchecked
    judged = judge_runs(options, "grade", [SolutionRun(problem, solution, tests, options.first_failure, expected,
                                                       expected_score, verdicts_only=options.hide_expected)], fresh=True,
                        spares=spares, meanwhile=_prepare_the_end)
    from ..reports.tables import failing_output, summary_line, test_table

    [result] = judged.results
    print(test_table(result))
    print(summary_line(result))
    if options.show_output:  # (contest mode keeps no output: saying "printed nothing" would be untrue)
        print("(--hide-expected: what the tests printed is not kept)" if options.hide_expected
              else failing_output(result))
    print(f"judged in {time.monotonic() - started:.2f} s with {jobs} worker(s)")
    if options.json:
        save_json(options.json, result.to_json())
    if options.junit:
        save_junit(options.junit, judged.results, stored=False)
    return EXIT_OK if result.verdict is Verdict.AC else EXIT_FAILED


def _prepare_the_end() -> None:
    """What the end of a grading needs, done while its tests run: the table's imports (tabulate's
    alone: ~25 ms)."""
    importlib.import_module("..reports.tables", __package__)
