"""The command line: `judge.py grade | check | report | doctor`.

Exit status: 0 when everything is as it should be (AC, or every stored solution at its expected
verdict), 1 when it is not, 2 for a usage or input error (reported in one line naming the file and
line, never with a traceback), 130 when interrupted, 141 when the reader of the output closed the
pipe. `check` and `report` both exit 1 when any stored solution is not at its expected verdict
(an IE anywhere is never expected).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from . import __version__, languages, project
from .problems.catalog import SOURCE_LIMIT, Catalog, display_path
from .errors import JudgeInputError
from .engine.grading import GradeResult, Pool, SolutionRun
from .engine.isolation import doctor_report, missing_layers_warning
from .reports.history import History, Judged, grade_and_record
from .reports.junit import write_junit
from .reports.pages import write_index
from .reports.progress import Progress
from .reports.tables import (changes_section, check_row, check_table, failing_output, history_text, reused_note,
                             run_json, summary_line, test_table, write_report)
from .verdicts import Verdict
from .formats import versioned
from .text import count

EXIT_OK, EXIT_FAILED, EXIT_INPUT_ERROR, EXIT_INTERRUPTED, EXIT_CLOSED_PIPE = 0, 1, 2, 130, 141


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a terminal that cannot show a character gets an escape, not a crash
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    parser = _parser()
    options = parser.parse_args(argv)
    project.complete(options)
    options.argv = sys.argv[1:] if argv is None else list(argv)
    options.prog = Path(sys.argv[0]).name if argv is None else parser.prog  # "judge" when installed
    guard = _ReaderGuard(sys.stdout) if _writes_files(options) else None
    try:
        if guard:
            sys.stdout = guard
        code = options.command(options)
        return EXIT_CLOSED_PIPE if guard and guard.gone else code
    except JudgeInputError as err:
        print(f"judge: error: {err}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    except KeyboardInterrupt:
        print("\njudge: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader went away (`judge.py grade ... | head -1`): stop quietly
        _silence_stdout()
        return EXIT_CLOSED_PIPE
    finally:
        if guard:
            sys.stdout = guard.stream
        if getattr(options, "cluster_pool", None):
            options.cluster_pool.close()


def _writes_files(options) -> bool:
    """report writes its pages; any command with --json or --junit its file."""
    return options.command is cmd_report or bool(getattr(options, "json", None) or getattr(options, "junit", None))


class _ReaderGuard:
    """stdout for a command that writes files: when the reader goes away (`judge report | head -3`),
    the rest of the output is dropped, the files are still written, and the command ends with 141."""

    def __init__(self, stream):
        self.stream, self.gone = stream, False

    def write(self, text: str) -> int:
        self._guarded(self.stream.write, text)
        return len(text)

    def flush(self) -> None:
        self._guarded(self.stream.flush)

    def _guarded(self, operation, *args) -> None:
        if not self.gone:
            try:
                operation(*args)
            except BrokenPipeError:
                self.gone = True
                _silence_stdout()

    def __getattr__(self, name):
        return getattr(self.stream, name)


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush of what is still buffered for a
    closed pipe does not fail again on the way out."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout is not a real file (captured by a test): nothing to flush
        pass


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="judge.py", description="Grade TopCoder-style solutions (Python, C++, Java).")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    _global_options(parser, defaults=True)
    subparsers = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")
    everywhere = argparse.ArgumentParser(add_help=False)
    _global_options(everywhere, defaults=False)

    def command(name: str, help: str) -> argparse.ArgumentParser:
        """A command that also takes the global options after its name (`grade x.py --problems DIR`)."""
        return subparsers.add_parser(name, help=help, parents=[everywhere])

    commands = argparse.Namespace(add_parser=command)

    grade = commands.add_parser("grade", help="grade one solution file, test by test")
    grade.add_argument("solution", type=Path, help="a .py, .cpp or .java file defining the problem's class")
    grade.add_argument("--problem", metavar="SLUG", help="the problem (default: found from the class name)")
    grade.add_argument("--examples", action="store_true", help="run only the statement's examples")
    grade.add_argument("--test", action="append", metavar="NAME", help="run only this test (repeatable)")
    grade.add_argument("--first-failure", action="store_true", help="stop at the first failing test")
    grade.add_argument("--json", type=Path, metavar="FILE", help="also write the result as JSON")
    grade.add_argument("--junit", type=Path, metavar="FILE", help="also write the result as JUnit XML")
    grade.add_argument("--show-output", action="store_true",
                       help="show what each failing test printed (stdout and stderr, capped)")
    _add_hide(grade)
    _add_jobs(grade)
    _add_cluster(grade)
    grade.set_defaults(command=cmd_grade)

    check = commands.add_parser("check", help="every stored solution must get its expected verdict")
    check.add_argument("slugs", nargs="*", metavar="SLUG", help="only these problems (default: all)")
    check.add_argument("--all-tests", action="store_true",
                       help="run every test (default: stop each solution at its first failing test)")
    check.add_argument("--json", type=Path, metavar="FILE", help="also write the results as JSON")
    check.add_argument("--junit", type=Path, metavar="FILE",
                       help="also write JUnit XML (one testsuite per solution)")
    _add_fresh(check)
    _add_hide(check)
    _add_jobs(check)
    _add_cluster(check)
    check.set_defaults(command=cmd_check)

    report = commands.add_parser("report", help="grade every stored solution on every test; write reports/")
    report.add_argument("slugs", nargs="*", metavar="SLUG", help="only these problems (default: all)")
    report.add_argument("--out", type=Path, metavar="DIR",
                        help="where to write the reports (default: reports/ beside the problems folder)")
    report.add_argument("--json", type=Path, metavar="FILE", help="also write the results as JSON")
    _add_fresh(report)
    _add_hide(report)
    _add_jobs(report)
    _add_cluster(report)
    report.set_defaults(command=cmd_report)

    history = commands.add_parser("history", help="recorded runs, or one solution's or problem's verdicts over time")
    history.add_argument("target", nargs="?", metavar="SOLUTION|SLUG",
                         help="a solution file or a problem (default: list the latest runs)")
    history.add_argument("--limit", type=_positive, default=20, metavar="N", help="show at most N rows (default: 20)")
    history.set_defaults(command=cmd_history)

    doctor = commands.add_parser("doctor", help="show which isolation layers this machine provides")
    doctor.add_argument("--cluster", nargs="?", const="", metavar="ADDRESS",
                        help="show every worker of this Dask cluster instead (default address: $JUDGE_CLUSTER)")
    doctor.set_defaults(command=cmd_doctor)

    validate = commands.add_parser("validate", help="every fault of a problem folder at once, then the proofs "
                                                    "of its test data")
    validate.add_argument("slugs", nargs="*", metavar="SLUG", help="only these problems (default: all)")
    validate.add_argument("--random-cases", type=_positive, default=300, metavar="N",
                          help="random inputs on which the reference and verify.py must agree (default: 300)")
    validate.add_argument("--strict", action="store_true",
                          help="warnings fail too (exit 1), as problemtools' -werror")
    _add_jobs(validate)
    validate.set_defaults(command=cmd_validate)

    stress = commands.add_parser("stress", help="random inputs until a solution disagrees with the reference; "
                                                "the smallest such input")
    stress.add_argument("solution", type=Path, help="the solution to test")
    stress.add_argument("--problem", metavar="SLUG", help="the problem (default: found from the class name)")
    stress.add_argument("--against", type=Path, metavar="REF",
                        help="the trusted solution (default: the problem's accepted/reference.py)")
    stress.add_argument("--time", type=float, default=10.0, metavar="SECONDS",
                        help="how long to look for a counterexample (default: 10)")
    stress.add_argument("--seed", type=int, metavar="N", help="hypothesis seed, to repeat a run (default: random)")
    stress.add_argument("--json", type=Path, metavar="FILE", help="also write the outcome as JSON")
    stress.add_argument("--add", action="store_true", help="keep the counterexample in tests/stress.yaml")
    _add_jobs(stress)
    stress.set_defaults(command=cmd_stress)

    challenge = commands.add_parser("challenge", help="TopCoder's challenge phase: does the solution survive "
                                                      "this input?")
    challenge.add_argument("solution", type=Path, help="the challenged solution")
    challenge.add_argument("--args", required=True, metavar="JSON", dest="challenge_args",
                           help='the input, e.g. \'{"values": [1, 2], "factor": 3}\'')
    challenge.add_argument("--problem", metavar="SLUG", help="the problem (default: found from the class name)")
    challenge.add_argument("--add", action="store_true", help="keep a successful challenge in tests/challenge.yaml")
    _add_jobs(challenge)
    challenge.set_defaults(command=cmd_challenge)

    calibrate = commands.add_parser("calibrate", help="a time limit from the stored solutions' running times")
    calibrate.add_argument("slug", metavar="SLUG", help="the problem")
    calibrate.add_argument("--factor", type=float, default=3.0, metavar="X",
                           help="the limit is the slowest accepted CPU time times X, rounded up (default: 3)")
    calibrate.add_argument("--write", action="store_true", help="set time_limit in problem.yaml")
    _add_jobs(calibrate)
    calibrate.set_defaults(command=cmd_calibrate)

    new = commands.add_parser("new", help="start a problem folder: problem.yaml, statement, examples, reference "
                                          "stub, generator and verify.py skeletons")
    new.add_argument("slug", metavar="SLUG", help="the folder name: lower-case letters, digits and hyphens")
    new.add_argument("--class", required=True, dest="class_name", metavar="NAME", help="the class solutions define")
    new.add_argument("--method", required=True, metavar="NAME", help="the method the judge calls")
    new.add_argument("--signature", required=True, metavar="SIG",
                     help='parameters and return type, e.g. "int[] a, String s -> int"')
    new.set_defaults(command=cmd_new)

    init = commands.add_parser("init", help="make an empty project folder: problems/, solutions/, a README")
    init.add_argument("folder", nargs="?", type=Path, default=Path("."), metavar="DIR",
                      help="the project folder (default: the current folder)")
    init.set_defaults(command=cmd_init)

    worker = commands.add_parser("worker", help="start a Dask worker for --cluster grading: one thread per process, "
                                                "one process per core (docs/cluster.md)")
    worker.add_argument("address", metavar="SCHEDULER", help="the scheduler's address, e.g. tcp://10.0.0.1:8786")
    worker.add_argument("--processes", type=_positive, metavar="N", help="worker processes (default: one per core)")
    worker.add_argument("--scratch", type=Path, metavar="DIR",
                        help="where its scratch folder goes (default: the system's temp folder); removed at exit")
    worker.set_defaults(command=cmd_worker)
    return parser


def _global_options(parser: argparse.ArgumentParser, defaults: bool) -> None:
    """Options every command accepts, before or after its name. Only the main parser holds defaults
    (a command's copy is SUPPRESSed, so it sets the value only when given)."""

    def default(value):
        return value if defaults else argparse.SUPPRESS

    parser.add_argument("--problems", type=Path, default=default(None), metavar="DIR",
                        help="the problems folder (default: ./problems)")
    parser.add_argument("--solutions", type=Path, default=default(None), metavar="DIR",
                        help="the stored solutions folder (default: solutions/ beside the problems folder)")
    parser.add_argument("--history", type=Path, default=default(None),
                        metavar="FILE", help="the run history: every run is recorded there, and check and report "
                                             "reuse unchanged results from it (default: reports/history.sqlite "
                                             "beside the problems folder)")
    parser.add_argument("--source-limit", type=_positive, default=default(SOURCE_LIMIT // 1024), metavar="KIB",
                        help=f"largest solution source accepted, in KiB; larger is CE (default: {SOURCE_LIMIT // 1024})")


def _add_hide(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hide-expected", action="store_true",
                        help="verdicts only, for contests: failing tests show neither the expected value nor the "
                             "input, nor what the solution printed, returned or raised")


def _add_jobs(parser: argparse.ArgumentParser) -> None:
    default = len(os.sched_getaffinity(0))
    parser.add_argument("-j", "--jobs", type=_positive, default=default, metavar="N",
                        help=f"tests run in parallel on N workers (default: {default}, the number of cores)")


def _add_cluster(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cluster", default=os.environ.get("JUDGE_CLUSTER") or None, metavar="ADDRESS",
                        help="grade on the workers of this Dask scheduler, e.g. tcp://host:8786 "
                             "(default: $JUDGE_CLUSTER; see docs/cluster.md)")
    parser.add_argument("--cluster-require-isolation", action="store_true",
                        help="grade only on workers that confine tests as well as this machine")


def _add_fresh(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--fresh", action="store_true",
                        help="grade every solution again instead of reusing unchanged results from the history")


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


# -- grade ----------------------------------------------------------------------------------------

def cmd_grade(options) -> int:
    catalog = Catalog(options.problems, options.solutions)
    solution = options.solution
    if not solution.is_file():
        raise JudgeInputError("no such file", solution)
    language = languages.for_path(solution)
    if language.toolchain() is None:
        raise JudgeInputError(language.missing_message(), solution)
    problem = catalog.problem(options.problem) if options.problem else catalog.problem_for(
        solution, options.source_limit * 1024)
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
    print(f"Grading {display_path(solution)} on {problem.name} ({problem.slug}): {len(tests)} tests, "
          f"{problem.time_limit:g} s, {problem.memory_limit} MiB")
    jobs = _jobs(options)
    started = time.monotonic()
    judged = _judge(options, "grade", [SolutionRun(problem, solution, tests, options.first_failure,
                                                             verdicts_only=options.hide_expected)], fresh=True)
    [result] = judged.results
    print(test_table(result))
    print(summary_line(result))
    if options.show_output:
        print(failing_output(result))
    print(f"judged in {time.monotonic() - started:.2f} s with {jobs} worker(s)")
    if options.json:
        _write_json(options.json, result.to_json())
    if options.junit:
        _write_junit(options.junit, judged.results, stored=False)
    return EXIT_OK if result.verdict is Verdict.AC else EXIT_FAILED


# -- check and report ------------------------------------------------------------------------------

def _stored_runs(catalog: Catalog, slugs: list[str], stop_on_failure: bool,
                 verdicts_only: bool = False) -> list[SolutionRun]:
    """A run for every stored solution of the chosen problems (all problems are loaded first)."""
    runs = []
    unavailable: dict[languages.Language, int] = {}  # a language whose compiler is missing here -> solutions left out
    for slug in slugs or catalog.slugs():
        problem = catalog.problem(slug)
        for stored in catalog.stored_solutions(slug):
            language = languages.for_path(stored.path)
            if language.toolchain() is None:
                unavailable[language] = unavailable.get(language, 0) + 1
                continue
            runs.append(SolutionRun(problem, stored.path, problem.tests, stop_on_failure, stored.expected,
                                    verdicts_only=verdicts_only))
    for path in catalog.skipped:
        print(f"judge: note: not graded (a language, compiler or layout the judge cannot run here): {display_path(path)}",
              file=sys.stderr)
    for language, count in unavailable.items():  # the machine's limit, not a mismatch: said once per language
        print(f"judge: note: {count} stored {language.title} solution(s) not graded: {language.missing_message()}",
              file=sys.stderr)
    if not runs:
        raise JudgeInputError("no stored solutions to check", catalog.solutions_dir)
    return runs


def cmd_check(options) -> int:
    catalog = Catalog(options.problems, options.solutions)
    runs = _stored_runs(catalog, options.slugs, stop_on_failure=not options.all_tests,
                        verdicts_only=options.hide_expected)
    print(f"Checking {len(runs)} stored solutions of {len({run.problem.slug for run in runs})} problems "
          f"with {_jobs(options)} worker(s)")
    started = time.monotonic()

    def line(result: GradeResult) -> str:
        mark = "ok" if result.verdict is result.expected else "MISMATCH"
        return f"  {mark:8} {display_path(result.solution)}: {result.verdict} (expected {result.expected})"

    judged = _judge(options, "check", runs, options.fresh or options.hide_expected, line)  # (stored results show all)
    results = judged.results
    print(check_table([check_row(result) for result in results]))
    matched = sum(result.verdict is result.expected for result in results)
    print(f"{matched} of {len(results)} solutions got their expected verdict "
          f"({time.monotonic() - started:.1f} s{reused_note(judged)})")
    print(changes_section(judged.outcome))
    if options.json:
        _write_json(options.json, run_json(judged))
    if options.junit:
        _write_junit(options.junit, results, stored=True)
    return EXIT_OK if matched == len(results) else EXIT_FAILED


def cmd_report(options) -> int:
    catalog = Catalog(options.problems, options.solutions)
    runs = _stored_runs(catalog, options.slugs, stop_on_failure=False, verdicts_only=options.hide_expected)
    _make_folder(options.out)  # before grading: a bad --out costs one line, not a whole run
    started = time.monotonic()
    judged = _judge(options, "report", runs, options.fresh or options.hide_expected)
    by_problem: dict[str, list[GradeResult]] = {}
    for result in judged.results:
        by_problem.setdefault(result.problem.slug, []).append(result)
    try:
        for slug, group in by_problem.items():
            print(f"\n{group[0].problem.name} ({slug})")
            print(check_table([check_row(result) for result in group]))
            changes = [c for c in judged.outcome.changes if c.problem == slug]
            for path in write_report(options.out, slug, group, changes, options.hide_expected):
                print(f"wrote {display_path(path)}")
        print(f"wrote {display_path(write_index(options.out))}")
    except OSError as err:
        raise JudgeInputError(f"cannot write the report: {err.strerror}", err.filename or options.out) from None
    matched = sum(result.verdict is result.expected for result in judged.results)
    print(f"\n{len(judged.results)} solutions graded in {time.monotonic() - started:.1f} s{reused_note(judged)}; "
          f"{matched} got their expected verdict")
    print(changes_section(judged.outcome))
    if options.json:
        _write_json(options.json, run_json(judged))
    return EXIT_OK if matched == len(judged.results) else EXIT_FAILED


def cmd_history(options) -> int:
    history = History(options.history)
    try:
        print(history_text(history, options.target, options.limit))
    finally:
        history.close()
    return EXIT_OK


def cmd_doctor(options) -> int:
    if options.cluster is not None:
        address = options.cluster or os.environ.get("JUDGE_CLUSTER")
        if not address:
            raise JudgeInputError("--cluster needs an ADDRESS (or JUDGE_CLUSTER set)")
        from .cluster.client import cluster_doctor
        report, complete = cluster_doctor(address)
        print(report)
        return EXIT_OK if complete else EXIT_FAILED
    report, complete = doctor_report()
    print(report)
    print()
    print(languages.doctor_table())
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
    failed = 0
    for slug in slugs:
        findings = validate_problem(catalog, slug, options.jobs, options.random_cases, options.source_limit * 1024)
        for severity, found in (("error", findings.errors), ("warning", findings.warnings)):
            for item in found:
                where = f"{item.path}:{item.line}" if item.line else str(item.path or catalog.problems_dir / slug)
                print(f"{where}: {severity}: {item.message}")
        counts = f"{count(len(findings.errors), 'error')}, {count(len(findings.warnings), 'warning')}"
        print(f"{slug}: {'ok' if not findings else counts}", flush=True)
        failed += bool(findings.errors or (options.strict and findings.warnings))
    print(f"{len(slugs) - failed} of {count(len(slugs), 'problem')} valid" + (" (--strict: warnings fail)" if options.strict else ""))
    return EXIT_FAILED if failed else EXIT_OK


def _solution_and_problem(catalog: Catalog, solution: Path, slug: str | None):
    """For stress and challenge, which draw or check inputs from a method problem's declared types."""
    if not solution.is_file():
        raise JudgeInputError("no such file", solution)
    problem = catalog.problem(slug) if slug else catalog.problem_for(solution)
    if problem.kind != "method":
        raise JudgeInputError(f"{problem.slug} is a {problem.kind} problem: stress and challenge need declared "
                              "parameter types (a method problem)")
    return problem


def cmd_stress(options) -> int:
    from .setter.keep import keep_test, next_name
    from .setter.stress import Duel, failure_text, stress
    from .setter.validate import reference_path

    catalog = Catalog(options.problems, options.solutions)
    problem = _solution_and_problem(catalog, options.solution, options.problem)
    against = options.against or reference_path(catalog, problem.slug)
    if not against.is_file():
        raise JudgeInputError("no reference solution to stress against (use --against)", against)
    print(f"Stressing {display_path(options.solution)} against {display_path(against)} on {problem.name} "
          f"({problem.slug}) for {options.time:g} s")
    last_line = [time.monotonic()]

    def tick(cases: int, failure) -> None:  # a line every 10 s, so a long run is never silent
        if time.monotonic() - last_line[0] >= 10:
            last_line[0] = time.monotonic()
            print(f"judge: {cases} cases" + (", shrinking a counterexample" if failure else ""), file=sys.stderr,
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
        _write_json(options.json, result.to_json())
    if failure and options.add:
        if failure.verdict is Verdict.IE:
            raise JudgeInputError(f"not kept: {failure.message}")
        path, name = keep_test(problem, "stress.yaml", "stress", failure.args, failure.expected,
                               f"found by stress: {failure.verdict} from {options.solution.name}")
        print(f"kept as test {name} in {display_path(path)}")
    return EXIT_FAILED if failure else EXIT_OK


def cmd_challenge(options) -> int:
    from .setter.challenge import challenge_input
    from .setter.keep import keep_test
    from .setter.stress import Duel
    from .setter.validate import reference_path

    catalog = Catalog(options.problems, options.solutions)
    problem = _solution_and_problem(catalog, options.solution, options.problem)
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


def cmd_calibrate(options) -> int:
    from .setter.calibrate import calibrate

    catalog = Catalog(options.problems, options.solutions)
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


def cmd_new(options) -> int:
    from .setter.new import create_problem

    for path in create_problem(options.problems, options.solutions, options.slug, options.class_name,
                               options.method, options.signature):
        print(f"wrote {display_path(path)}")
    print(f"next: write the statement, the examples and the reference, then run: {options.prog} validate "
          f"{options.slug}")
    return EXIT_OK


def cmd_init(options) -> int:
    from .setter.init import init_project

    for path in init_project(options.folder):
        print(f"wrote {path}")
    where = "" if options.folder == Path(".") else f"cd {options.folder} && "
    print(f"next: {where}{options.prog} new SLUG --class NAME --method NAME --signature SIG")
    return EXIT_OK


def cmd_worker(options) -> int:
    from .cluster.worker_command import serve_worker

    return serve_worker(options.address, options.processes, options.scratch)


# -- helpers ---------------------------------------------------------------------------------------

def _judge(options, command: str, runs: list[SolutionRun], fresh: bool, line=None) -> Judged:
    """Grade runs (reusing unchanged results unless `fresh`) with progress, and record them in the history.
    `line(result)` is printed as each solution finishes."""

    def grade(to_grade: list[SolutionRun]) -> list[GradeResult]:
        if not to_grade:
            return []
        with Progress(sum(len(run.tests) for run in to_grade), len(to_grade)) as progress:
            return _grade_runs(options, to_grade, progress, line)

    def reused(result: GradeResult) -> None:
        if line:
            print(f"{line(result)} (reused)", flush=True)

    history = History(options.history, options.source_limit * 1024)
    try:
        return grade_and_record(history, command, options.argv, runs, fresh, grade, reused)
    finally:
        history.close()


def _grade_runs(options, runs: list[SolutionRun], progress: Progress, line=None) -> list[GradeResult]:
    """Grade runs on a pool of `options.jobs` workers (or the cluster's), and say when isolation is partial."""
    warning = None if options.cluster else missing_layers_warning()  # on a cluster, the workers' counts
    if warning:
        print(warning, file=sys.stderr)
    with _pool(options) as pool:
        results = pool.grade(runs, on_test=lambda run, index, test: progress.test_done(display_path(run.solution)),
                             on_done=lambda result: progress.solution_done(line(result) if line else None))
    for problem in sorted(pool.warnings):
        print(f"judge: warning: {problem}", file=sys.stderr)
    return results


def _write_junit(path: Path, results: list[GradeResult], stored: bool) -> None:
    try:
        write_junit(path, results, stored)
    except OSError as err:
        raise JudgeInputError(f"cannot write: {err.strerror}", path) from None
    print(f"wrote {path}")


def _pool(options):
    """A local Pool of -j workers, or the Dask cluster of --cluster / JUDGE_CLUSTER (connected once
    per command; only then is dask imported)."""
    if not options.cluster:
        return Pool(options.jobs, source_limit=options.source_limit * 1024)
    if getattr(options, "cluster_pool", None) is None:
        from .cluster.client import ClusterPool
        options.cluster_pool = ClusterPool(options.cluster, options.cluster_require_isolation,
                                           source_limit=options.source_limit * 1024)
    return options.cluster_pool


def _jobs(options) -> int:
    """How many tests run at once, for the headers."""
    return _pool(options).jobs if options.cluster else options.jobs


def _make_folder(path: Path) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise JudgeInputError(f"cannot create the output folder: {err.strerror}", path) from None


def _write_json(path: Path, data) -> None:
    try:
        path.write_text(json.dumps(versioned(data), indent=2) + "\n", encoding="utf-8")
    except OSError as err:
        raise JudgeInputError(f"cannot write: {err.strerror}", path) from None
    print(f"wrote {path}")
