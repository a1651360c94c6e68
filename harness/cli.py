"""The command line: `judge.py grade | check | report | doctor`.

Exit status: 0 when everything is as it should be (AC, or every stored solution at its expected
verdict), 1 when it is not, 2 for a usage or input error (reported in one line naming the file and
line, never with a traceback), 130 when interrupted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from .problems.catalog import PROJECT_ROOT, Catalog, display_path
from .errors import JudgeInputError
from .engine.grading import GradeResult, Pool, SolutionRun
from .engine.isolation import doctor_report, missing_layers_warning
from .reports.tables import check_row, check_table, summary_line, test_table, write_report
from .verdicts import Verdict

EXIT_OK, EXIT_FAILED, EXIT_INPUT_ERROR, EXIT_INTERRUPTED = 0, 1, 2, 130


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a terminal that cannot show a character gets an escape, not a crash
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    parser = _parser()
    options = parser.parse_args(argv)
    try:
        return options.command(options)
    except JudgeInputError as err:
        print(f"judge: error: {err}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    except KeyboardInterrupt:
        print("\njudge: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="judge.py", description="Grade TopCoder-style Python solutions.")
    _global_options(parser, defaults=True)
    subparsers = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")
    everywhere = argparse.ArgumentParser(add_help=False)
    _global_options(everywhere, defaults=False)

    def command(name: str, help: str) -> argparse.ArgumentParser:
        """A command that also takes the global options after its name (`grade x.py --problems DIR`)."""
        return subparsers.add_parser(name, help=help, parents=[everywhere])

    commands = argparse.Namespace(add_parser=command)

    grade = commands.add_parser("grade", help="grade one solution file, test by test")
    grade.add_argument("solution", type=Path, help="a Python file defining the problem's class")
    grade.add_argument("--problem", metavar="SLUG", help="the problem (default: found from the class name)")
    grade.add_argument("--examples", action="store_true", help="run only the statement's examples")
    grade.add_argument("--test", action="append", metavar="NAME", help="run only this test (repeatable)")
    grade.add_argument("--first-failure", action="store_true", help="stop at the first failing test")
    grade.add_argument("--json", type=Path, metavar="FILE", help="also write the result as JSON")
    _add_jobs(grade)
    grade.set_defaults(command=cmd_grade)

    check = commands.add_parser("check", help="every stored solution must get its expected verdict")
    check.add_argument("slugs", nargs="*", metavar="SLUG", help="only these problems (default: all)")
    check.add_argument("--all-tests", action="store_true",
                       help="run every test (default: stop each solution at its first failing test)")
    check.add_argument("--json", type=Path, metavar="FILE", help="also write the results as JSON")
    _add_jobs(check)
    check.set_defaults(command=cmd_check)

    report = commands.add_parser("report", help="grade every stored solution on every test; write reports/")
    report.add_argument("slugs", nargs="*", metavar="SLUG", help="only these problems (default: all)")
    report.add_argument("--out", type=Path, default=PROJECT_ROOT / "reports", metavar="DIR",
                        help="where to write the reports (default: reports/)")
    _add_jobs(report)
    report.set_defaults(command=cmd_report)

    doctor = commands.add_parser("doctor", help="show which isolation layers this machine provides")
    doctor.set_defaults(command=cmd_doctor)

    validate = commands.add_parser("validate", help="every fault of a problem folder at once, then the proofs "
                                                    "of its test data")
    validate.add_argument("slugs", nargs="*", metavar="SLUG", help="only these problems (default: all)")
    validate.add_argument("--random-cases", type=_positive, default=300, metavar="N",
                          help="random inputs on which the reference and verify.py must agree (default: 300)")
    _add_jobs(validate)
    validate.set_defaults(command=cmd_validate)
    return parser


def _global_options(parser: argparse.ArgumentParser, defaults: bool) -> None:
    """Options every command accepts, before or after its name. Only the main parser holds defaults
    (a command's copy is SUPPRESSed, so it sets the value only when given)."""

    def default(value):
        return value if defaults else argparse.SUPPRESS

    parser.add_argument("--problems", type=Path, default=default(_default_folder("problems")), metavar="DIR",
                        help="the problems folder (default: ./problems if there is one, else the judge's own)")
    parser.add_argument("--solutions", type=Path, default=default(_default_folder("solutions")), metavar="DIR",
                        help="the stored solutions folder (default: ./solutions if there is one, else the judge's own)")


def _default_folder(name: str) -> Path:
    """./NAME when the current folder has one (a setter's own project), else the judge's own."""
    here = Path(name)
    return here if here.is_dir() else PROJECT_ROOT / name


def _add_jobs(parser: argparse.ArgumentParser) -> None:
    default = len(os.sched_getaffinity(0))
    parser.add_argument("-j", "--jobs", type=_positive, default=default, metavar="N",
                        help=f"tests run in parallel on N workers (default: {default}, the number of cores)")


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


# -- grade -----------------------------------------------------------------------------------------

def cmd_grade(options) -> int:
    catalog = Catalog(options.problems, options.solutions)
    solution = options.solution
    if not solution.is_file():
        raise JudgeInputError("no such file", solution)
    problem = catalog.problem(options.problem) if options.problem else catalog.problem_for(solution)
    tests = problem.examples if options.examples else problem.tests
    if options.test:
        unknown = sorted(set(options.test) - {t.name for t in problem.tests})
        if unknown:
            raise JudgeInputError(f"problem {problem.slug} has no test named {unknown[0]!r}")
        tests = [t for t in tests if t.name in options.test]
    print(f"Grading {display_path(solution)} on {problem.name} ({problem.slug}): {len(tests)} tests, "
          f"{problem.time_limit:g} s, {problem.memory_limit} MiB")
    started = time.monotonic()
    [result] = _grade_runs(options, [SolutionRun(problem, solution, tests, options.first_failure)],
                           lambda run, test: f"{test.name} {test.verdict}")
    print(test_table(result))
    print(summary_line(result))
    print(f"judged in {time.monotonic() - started:.2f} s with {options.jobs} worker(s)")
    if options.json:
        _write_json(options.json, result.to_json())
    return EXIT_OK if result.verdict is Verdict.AC else EXIT_FAILED


# -- check and report ------------------------------------------------------------------------------

def _stored_runs(catalog: Catalog, slugs: list[str], stop_on_failure: bool) -> list[SolutionRun]:
    """A run for every stored solution of the chosen problems (all problems are loaded first)."""
    runs = []
    for slug in slugs or catalog.slugs():
        problem = catalog.problem(slug)
        runs += [SolutionRun(problem, stored.path, problem.tests, stop_on_failure, stored.expected)
                 for stored in catalog.stored_solutions(slug)]
    if not runs:
        raise JudgeInputError("no stored solutions to check", catalog.solutions_dir)
    return runs


def cmd_check(options) -> int:
    catalog = Catalog(options.problems, options.solutions)
    runs = _stored_runs(catalog, options.slugs, stop_on_failure=not options.all_tests)
    print(f"Checking {len(runs)} stored solutions of {len({run.problem.slug for run in runs})} problems "
          f"with {options.jobs} worker(s)")
    started = time.monotonic()

    def done(result: GradeResult) -> None:
        mark = "ok" if result.verdict is result.expected else "MISMATCH"
        print(f"  {mark:8} {display_path(result.solution)}: {result.verdict} (expected {result.expected})", flush=True)

    results = _grade_runs(options, runs, lambda run, test: display_path(run.solution), done)
    print(check_table([check_row(result) for result in results]))
    matched = sum(result.verdict is result.expected for result in results)
    print(f"{matched} of {len(results)} solutions got their expected verdict "
          f"({time.monotonic() - started:.1f} s)")
    if options.json:
        _write_json(options.json, [result.to_json() for result in results])
    return EXIT_OK if matched == len(results) else EXIT_FAILED


def cmd_report(options) -> int:
    catalog = Catalog(options.problems, options.solutions)
    runs = _stored_runs(catalog, options.slugs, stop_on_failure=False)
    results = _grade_runs(options, runs, lambda run, test: display_path(run.solution))
    by_problem: dict[str, list[GradeResult]] = {}
    for result in results:
        by_problem.setdefault(result.problem.slug, []).append(result)
    for slug, group in by_problem.items():
        print(f"\n{group[0].problem.name} ({slug})")
        print(check_table([check_row(result) for result in group]))
        for path in write_report(options.out, slug, group):
            print(f"wrote {display_path(path)}")
    return EXIT_OK


def cmd_doctor(options) -> int:
    report, complete = doctor_report()
    print(report)
    warning = missing_layers_warning()
    if warning:
        print(warning)
    return EXIT_OK if complete else EXIT_FAILED


def cmd_validate(options) -> int:
    from .setter.validate import validate_problem

    catalog = Catalog(options.problems, options.solutions)
    slugs = options.slugs or catalog.slugs()
    known = set(catalog.slugs())
    for slug in slugs:
        if slug not in known and not (catalog.problems_dir / slug).is_dir():
            raise JudgeInputError(f"unknown problem {slug!r} (known: {', '.join(sorted(known)) or 'none'})")
    faulty = 0
    for slug in slugs:
        findings = validate_problem(catalog, slug, options.jobs, options.random_cases)
        for severity, found in (("error", findings.errors), ("warning", findings.warnings)):
            for item in found:
                where = f"{item.path}:{item.line}" if item.line else str(item.path or catalog.problems_dir / slug)
                print(f"{where}: {severity}: {item.message}")
        counts = f"{len(findings.errors)} error(s), {len(findings.warnings)} warning(s)"
        print(f"{slug}: {'ok' if not findings else counts}", flush=True)
        faulty += bool(findings)
    print(f"{len(slugs) - faulty} of {len(slugs)} problems clean")
    return EXIT_FAILED if faulty else EXIT_OK


# -- helpers ---------------------------------------------------------------------------------------

def _grade_runs(options, runs: list[SolutionRun], progress_label, on_done=None) -> list[GradeResult]:
    """Grade runs on a pool of `options.jobs` workers, with progress, and say when isolation is partial."""
    warning = missing_layers_warning()
    if warning:
        print(warning, file=sys.stderr)
    progress = Progress(sum(len(run.tests) for run in runs))

    def finished(result: GradeResult) -> None:
        progress.clear()
        on_done(result)

    with Pool(options.jobs) as pool:
        results = pool.grade(runs, on_test=lambda run, index, test: progress.step(progress_label(run, test)),
                             on_done=finished if on_done else None)
    progress.clear()
    for problem in sorted(pool.warnings):
        print(f"judge: warning: {problem}", file=sys.stderr)
    return results


class Progress:
    """A one-line counter on stderr for long runs, shown only on a terminal."""

    def __init__(self, total: int):
        self.total, self.done = total, 0
        self.live = sys.stderr.isatty()

    def step(self, label: str) -> None:
        self.done += 1
        if self.live:
            sys.stderr.write(f"\r\033[K[{self.done}/{self.total}] {label}"[:120])
            sys.stderr.flush()

    def clear(self) -> None:
        if self.live:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def _write_json(path: Path, data) -> None:
    try:
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    except OSError as err:
        raise JudgeInputError(f"cannot write: {err.strerror}", path) from None
    print(f"wrote {path}")
