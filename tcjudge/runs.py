"""A grading run, from choosing what to grade to the recorded result: the one owner of a run.

It chooses the runs (the stored solutions of the chosen problems, or what a command hands it), asks
the history (a store) which results can be reused, grades the rest on a pool (a local engine.pool.Pool
or, with --cluster, a cluster.client.ClusterPool: the same interface) with progress, records the
run in the history, and hands the results back for the reports to read.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from . import languages
from .engine.isolation import missing_layers_warning
from .engine.pool import Pool, SolutionRun
from .engine.results import GradeResult, TestResult
from .engine.spares import Spares
from .errors import JudgeInputError
from .problems.catalog import Catalog, display_path
from .problems.format import Problem, language_of
from .record import replace
from .reports.progress import Progress
from .text import count
from .verdicts import Verdict

if TYPE_CHECKING:  # (imported where they are used: a fresh run of a file reaches its first test without them)
    from .problems.scoring import ScoreRange
    from .reports.history import History, Judged


def stored_runs(catalog: Catalog, slugs: list[str], stop_on_failure: bool,
                 verdicts_only: bool = False) -> list[SolutionRun]:
    """A run for every stored solution of the chosen problems (all problems are loaded first), with the
    verdict (and, where its kind says one, the score) each must get."""
    runs = []
    unavailable: dict[languages.Language, int] = {}  # a language whose compiler is missing here -> solutions left out
    missing: dict[tuple[str, languages.Language], int] = {}  # (package, language without a compiler) -> skipped
    for slug in slugs or catalog.slugs():
        problem = catalog.problem(slug)
        noted = len(catalog.skipped)
        stored_solutions = catalog.stored_solutions(slug)
        for path in catalog.skipped[noted:]:
            language = language_of(path, languages.EXTENSIONS)
            if language is not None and language.toolchain() is None:
                missing[slug, language] = missing.get((slug, language), 0) + 1
                catalog.skipped.remove(path)
        for stored in stored_solutions:
            language = None if problem.kind.answers and stored.path.is_dir() else languages.for_path(stored.path)
            if language is not None and language.toolchain() is None:
                unavailable[language] = unavailable.get(language, 0) + 1
                continue
            runs.append(SolutionRun(problem, stored.path, problem.tests,
                                    stop_on_failure and not needs_every_test(problem, stored.expected),
                                    stored.expected, _expected_score(problem, stored),
                                    verdicts_only=verdicts_only))
    for path in catalog.skipped:
        print(f"judge: note: not graded ({_skipped_why(path)}): {display_path(path)}", file=sys.stderr)
    catalog.note_faults()
    for (slug, language), number in missing.items():  # one line per package, not per file (issue 21: Kotlin)
        print(f"judge: note: {slug}: {count(number, f'{language.title} submission')} skipped: "
              f"{language.missing_message()}", file=sys.stderr)
    for language, number in unavailable.items():  # the machine's limit, not a mismatch: said once per language
        print(f"judge: note: {number} stored {language.title} solution(s) not graded: {language.missing_message()}",
              file=sys.stderr)
    if not runs:
        chosen = slugs or catalog.slugs()
        left_out = len(catalog.skipped) + sum(unavailable.values()) + sum(missing.values()) + len(catalog.faults)
        why = f": {count(left_out, 'stored solution')} left out (see the notes above)" if left_out else ""
        where = catalog.solutions_folder(chosen[0]) if len(chosen) == 1 else catalog.solutions_dir
        raise JudgeInputError(f"no stored solutions to grade{why}", where)
    return runs


def _skipped_why(path: Path) -> str:
    """Why a stored submission is left out, in a few words."""
    language = language_of(path, languages.EXTENSIONS)
    if language is None:
        return "a language or layout the judge does not run" if path.exists() else "not found"
    if language.toolchain() is None:
        return language.missing_message()
    return language.unsupported(path) or ("nothing says what it should get: a folder the format does not name, "
                                          "and no submissions.yaml rule or @EXPECTED_RESULTS@ tag")


def stored_expectation(catalog: Catalog, problem: Problem, solution: Path, tests: list,
                       stop_on_failure: bool) -> tuple:
    """(expected, expected score) when `solution` is one of the problem's stored solutions and this
    run (its `tests`, whether it stops at a first failure) can show whether it gets them, as check's
    run of it would (grade names a stored solution by its path); else (None, None)."""
    if [test.name for test in tests] != [test.name for test in problem.tests]:
        return None, None  # --examples, --test: a verdict on some tests promises nothing
    stored = catalog.stored_solution(problem, solution)
    if stored is None or (stop_on_failure and needs_every_test(problem, stored.expected)):
        return None, None
    return stored.expected, _expected_score(problem, stored)


def needs_every_test(problem: Problem, expected) -> bool:
    """Whether a stored solution's expectation is judged on every test: a rule on a group of tests,
    or any scoring problem's groups."""
    return expected.every_test or problem.grading is not None


def _expected_score(problem: Problem, stored) -> ScoreRange | None:
    """The score a stored solution must get: submissions.yaml's `score` (inclusive), else what its
    folder asks (partially_accepted), else none."""
    from .problems.scoring import ScoreRange

    asked = stored.expected.score
    return ScoreRange(*asked) if asked is not None else problem.kind.expected_score(problem, stored.path)


def settled_runs(options, catalog: Catalog, stop_on_failure: bool,
                 verdicts_only: bool = False) -> list[SolutionRun]:
    """The stored runs (stored_runs) of the problems `check` and `report` grade (Catalog.chosen: the
    named ones, else every one that loads), each package's time limit computed first, so that both
    grade a package alike; where it is computed, the runs that bound it from neither side are graded
    beside those that must time out (settle_time_limit's `along`: one grading after the limit, not two)."""
    slugs = catalog.chosen(options.slugs)
    runs = stored_runs(catalog, slugs, stop_on_failure, verdicts_only)
    for slug in slugs:
        settle_time_limit(options, catalog, catalog.problem(slug), [run for run in runs if run.problem.slug == slug])
    return runs


def settle_time_limit(options, catalog: Catalog, problem: Problem, along: list[SolutionRun] = ()) -> None:
    """A package that gives no time limit gets the one its format computes from its submissions'
    running times (problems/timing.py), kept in the history with what it depends on (reports/
    kept_limits.py) and taken from there while nothing of that changes. To compute it, the tests that
    bound it from below (each submission's tests that a `lower` rule covers: Expectation.
    time_limit_tests) are graded under the timing's cap, the limit is set on the problem and said where
    it came from, and the tests that bound it from above are graded at `time_limit_to_tle` x the limit:
    each such submission must still time out on one of them, else a warning names it. Both gradings
    are the submissions' gradings at the limit too (one pass, issue 48): each result that the limit
    decides exactly (_at_limit) is recorded at it, so that the command's own grading reuses it; and so
    are `along`, the command's own runs of the problem, those of them that bound the limit from neither
    side graded beside those that must time out (one pass: no second grading after the limit's)."""
    timing = problem.timing
    if timing is None:
        return
    from .problems.timing import UNSET  # (a package's without a time limit)

    if not problem.time_limit_from.startswith(UNSET):
        return
    noted = len(catalog.skipped)
    stored = [s for s in catalog.stored_solutions(problem.slug)  # programs: a folder of answers takes no time
              if not (problem.kind.answers and s.path.is_dir()) and languages.for_path(s.path).toolchain() is not None]
    del catalog.skipped[noted:]  # (noted once, when the runs are chosen)
    catalog.note_faults()  # (its own faults leave a submission out of the limit too: said here, before the limit)
    history = OpenedOnUse(options.history, options.source_limit * 1024)
    try:
        key = _limit_key(history, problem, stored)
        from .reports.kept_limits import KeptLimits

        kept_limits = KeptLimits(history.db)
        kept = None if getattr(options, "fresh", False) else kept_limits.find(*key)
        if kept is not None:
            problem.time_limit = kept.time_limit
            problem.time_limit_from = f"{kept.explained}; kept from {time.strftime('%Y-%m-%d %H:%M', time.localtime(kept.computed))}"
            for warning in kept.warnings:
                print(f"judge: warning: {warning}", file=sys.stderr)
            return
        warnings, judged = _compute_time_limit(options, problem, stored, history, along)
        if problem.time_limit_from.startswith("computed") and Verdict.IE not in judged:  # (an IE: timed again next time)
            kept_limits.keep(problem.slug, *key, problem.time_limit, problem.time_limit_from, warnings)
    finally:
        history.close()


def _limit_key(history, problem: Problem, stored) -> tuple[str, str, str]:
    """(problem hash, machines of the stored submissions, engine): what a computed limit depends on."""
    from .languages.machine import verdict_machine
    from .reports.fingerprints import problem_hash
    from .reports.kept_limits import basis

    return problem_hash(problem.path), basis([verdict_machine(s.path, problem) for s in stored]), history.engine


def _compute_time_limit(options, problem: Problem, stored, history, along: list[SolutionRun] = ()
                        ) -> tuple[list[str], set[Verdict]]:
    """Time the submissions, set the problem's limit (see settle_time_limit); the warnings said, and
    the verdicts the timing runs got."""
    from .problems.expectations import UNTIMED
    from .problems.timing import MAX_LIMIT
    from .reports.history import TIMING_COMMAND

    timing, warnings = problem.timing, []

    def warn(text: str) -> None:
        warnings.append(text)
        print(f"judge: warning: {text}", file=sys.stderr)

    lower = _bounding_runs(problem, stored, "lower", timing.cap)
    if not lower:
        problem.time_limit_from = f"the default: no submission to compute one from ({timing.words})"
        return warnings, set()
    print(f"Timing {count(len(lower), 'submission')} of {problem.slug} for its time limit (none given)")
    fresh = getattr(options, "fresh", False)
    results = judge_runs(options, TIMING_COMMAND, lower, fresh).results
    judged = {result.verdict for result in results}
    failed = [r for r in results if r.verdict in UNTIMED]
    for result in failed:  # one submission's failure is said, and the others go on (issue 35)
        warn(f"{problem.slug}: time limit computed without {display_path(result.solution)}: it gets "
             f"{result.verdict} with {timing.cap:g} s per test{_why(result)}")
    times = [(t.cpu_ms, r.solution, t.name) for r in results if r not in failed for t in r.tests if t.verdict]
    if not times:
        problem.time_limit_from = (f"the default: every submission that would compute one failed, see the warnings "
                                   f"({timing.words})")
        return warnings, judged
    slowest_ms, solution, test = max(times, key=lambda time: (time[0], str(time[1]), time[2]))
    where = f"{display_path(solution)}, {test}"  # (once: a path made safe to show costs 0.25 ms)
    problem.time_limit = timing.limit(slowest_ms / 1000)
    problem.time_limit_from = timing.explain(slowest_ms / 1000, where)
    _record_at_limit(history, options, problem, lower, results)
    margin = min(MAX_LIMIT, problem.time_limit * timing.time_limit_to_tle)
    upper = _bounding_runs(problem, stored, "upper", margin)
    if upper:
        bounding = {run.solution for run in lower + upper}
        beside = [run for run in along if run.solution not in bounding]  # (at the limit: recorded as the command's)
        print(f"Timing {count(len(upper), 'submission')} of {problem.slug} that must time out at "
              f"{timing.time_limit_to_tle:g}x its limit" + (f", grading {count(len(beside), 'other')} beside them"
                                                           if beside else ""))
        for run in upper:  # (graded to the margin, stopped at its first failure at the limit: one pass)
            run.stops_above_ms = problem.time_limit * 1000
        results = judge_runs(options, TIMING_COMMAND, upper + beside, fresh).results[:len(upper)]
        judged |= {Verdict.TLE if _over_limit(result, problem) else result.verdict for result in results}
        for result in results:
            _say_margin(result, problem, margin, warn)
        _record_at_limit(history, options, problem, upper, results)
    return warnings, judged


def _say_margin(result: GradeResult, problem: Problem, margin: float, warn: Callable[[str], None]) -> None:
    """What a submission that must time out, graded to the margin, tells of the limit: nothing when a
    test reached the margin; a note when its run stopped at a test over the limit but under the margin
    (its first failure as `check` reports it: whether a later test would reach the margin is not known,
    and running on to find out cost excursion 48 s); else a warning (the judge failed, or the
    submission passes: the limit is too close to it)."""
    timing, who = problem.timing, display_path(result.solution)
    if any(t.verdict is Verdict.TLE for t in result.tests):
        return
    over = _over_limit(result, problem)
    if over is not None:
        print(f"judge: note: {who} times out at the computed {problem.time_limit:g} s limit first on {over.name} "
              f"({int(over.cpu_ms)} ms of CPU), under {margin:g} s ({timing.margin_words}); its run stops at that "
              f"first failure", file=sys.stderr)
    elif result.verdict is Verdict.IE:  # the judge's failure: nothing is told of the limit
        warn(f"{who} must time out at {margin:g} s, but the judge could not grade it there{_why(result)}")
    else:
        warn(f"{who} must time out, but gets {result.verdict} at {margin:g} s, {timing.time_limit_to_tle:g}x the "
             f"computed {problem.time_limit:g} s limit ({timing.margin_words}): the limit is too close to it")


def _over_limit(result: GradeResult, problem: Problem) -> TestResult | None:
    """The test, passed under a higher bound, where a run that stops above the problem's limit stopped."""
    return next((t for t in result.tests if t.verdict is Verdict.AC and t.cpu_ms > problem.time_limit * 1000), None)


def _record_at_limit(history, options, problem: Problem, runs: list[SolutionRun], results: list[GradeResult]) -> None:
    """Record, as graded at the problem's (now computed) limit, each timing result that the limit decides
    exactly: the grading of those submissions that the command would do next (one pass)."""
    from .reports.history import TIMING_COMMAND

    exact = [(SolutionRun(problem, run.solution, run.tests, run.stop_on_failure, run.expected), at_limit)
             for run, result in zip(runs, results) if (at_limit := _at_limit(result, problem)) is not None]
    if exact:
        from .reports.history import NotRecorded

        try:
            history.record(TIMING_COMMAND, options.argv, time.time(), [run for run, _ in exact], [r for _, r in exact], {})
        except NotRecorded:  # (a full disk: the command's grading grades them, and says so once)
            pass


def _at_limit(result: GradeResult, problem: Problem) -> GradeResult | None:
    """`result`, graded under another CPU limit, as it would be under the problem's own, stopped at its
    first failure; None where that cannot be told from the figures: a test stopped by its own limit
    below this one (a TLE that could pass here), or one that lasted longer in wall time than this
    limit's idle limit (protocol.Limits.idle), which could then have stopped it (its idle time is not
    known exactly: a test slowed by a busy machine is graded again, never judged on a guess)."""
    limit_ms = problem.time_limit * 1000
    idle_ms = (2 * problem.time_limit + 1) * 1000  # protocol.Limits.idle
    if problem.grading is not None:  # a scoring package's scores are its grader's: they stand where no test changes
        changes = any(t.verdict is not None and (t.cpu_ms > limit_ms or t.wall_ms > idle_ms or
                                                 t.verdict in (Verdict.TLE, Verdict.IE)) for t in result.tests)
        return None if changes else _graded_at(problem, result, result.tests)
    tests = []
    for test in result.tests:
        if test.verdict is None:  # not run: after the first failure
            tests.append(test)
            continue
        if test.cpu_ms > limit_ms:
            tests.append(replace(test, verdict=Verdict.TLE, cpu_ms=limit_ms,
                                 message=f"CPU time limit of {problem.time_limit:g} s exceeded"))
        elif test.verdict in (Verdict.TLE, Verdict.IE) or test.wall_ms > idle_ms:
            return None
        else:
            tests.append(test)
        if tests[-1].verdict is not Verdict.AC:
            tests += [TestResult(t.name, None) for t in result.tests[len(tests):]]
            break
    tests += result.tests[len(tests):]
    return _graded_at(problem, result, tests)


def _graded_at(problem: Problem, result: GradeResult, tests: list[TestResult]) -> GradeResult:
    """`result` with these tests, as graded under the problem's own limit."""
    return GradeResult(problem, result.solution, tests, result.compile_message, result.baseline_mib, result.expected,
                       result.expected_score, result.machine)


def _why(result: GradeResult) -> str:
    """What a result's failure says, in a few words: its compiler's first line, where and why the judge
    failed (an IE: a test's, or a scoring package's grader's), or its first failing test."""
    if result.compile_message:
        return ": " + result.compile_message.splitlines()[0][:200]
    if result.verdict is Verdict.IE and result.internal_error:
        return f" ({result.internal_error[:200]})"
    failing = next((t for t in result.tests if t.verdict is result.verdict), None)
    return f" ({failing.name}: {failing.message[:200]})" if failing and failing.message else ""


def _bounding_runs(problem: Problem, stored, role: str, time_limit: float) -> list[SolutionRun]:
    """A run under `time_limit` of each stored submission on its tests that bound a computed limit as
    `role` says (Expectation.time_limit_tests), stopped at its first failure unless it is judged on every
    test (a scoring package's grader reads every test's result: konami's crashed on a stopped run's, IE)."""
    timed = replace(problem, time_limit=time_limit, tests=problem.tests)
    if role == "lower" and problem.timing.legacy:
        stored = [s for s in stored if s.path.parent.name == "accepted"]
    return [SolutionRun(timed, s.path, tests, not needs_every_test(problem, s.expected), s.expected) for s in stored
            if (tests := s.expected.time_limit_tests(role, problem.tests))]


def reuse_or_run(history: History, runs: list[SolutionRun], fresh: bool,
                 machines_of: Callable[[Path, Problem], tuple[str, ...]] | None = None,
                 ) -> tuple[dict[int, tuple[int, GradeResult]], list[int]]:
    """Split `runs` into those a recorded result can stand for (index -> (tests id, result)) and the
    indexes that must be graded; `machines_of(solution, problem)`: where a result may have been graded to stand
    in (a cluster's workers; default: this machine)."""
    reused, to_grade = {}, []
    for index, run in enumerate(runs):
        found = None if fresh else history.reusable(run, machines_of)
        if found:
            reused[index] = found
        else:
            to_grade.append(index)
    return reused, to_grade


def grade_and_record(history: History, command: str, argv: list[str], runs: list[SolutionRun], fresh: bool,
                     grade: Callable[[list[SolutionRun]], list[GradeResult]],
                     on_reused: Callable[[GradeResult], None] | None = None,
                     machines_of: Callable[[Path, Problem], tuple[str, ...]] | None = None) -> Judged:
    """Reuse what the history can stand for (unless `fresh`; graded on `machines_of`'s), grade the
    rest with `grade`, record the run. An interrupted run (Ctrl-C, a closed pipe) is recorded as such,
    and nothing of it is ever reused."""
    started = time.time()
    reused, to_grade = reuse_or_run(history, runs, fresh, machines_of)
    to_grade.sort(key=lambda index: not _may_time_out(runs[index]))  # (results keep their places: by index)
    try:
        for _, result in reused.values():
            if on_reused:
                on_reused(result)
        graded = grade([runs[index] for index in to_grade])
    except (KeyboardInterrupt, BrokenPipeError):  # Ctrl-C, or the reader of our output gone (`check | head -1`)
        from .reports.history import NotRecorded

        try:
            history.record(command, argv, started, [], [], {}, status="interrupted")
        except NotRecorded:
            pass
        raise
    results: list[GradeResult] = [None] * len(runs)  # type: ignore[list-item]
    for index, (_, result) in reused.items():
        results[index] = result
    for index, result in zip(to_grade, graded):
        results[index] = result
    from .reports.history import Judged, NotRecorded, Outcome

    try:
        outcome = history.record(command, argv, started, runs, results,
                                 {index: tests_id for index, (tests_id, _) in reused.items()})
    except NotRecorded as err:  # the results stand and are shown; nothing of them is kept (a full disk)
        print(f"judge: warning: {err} (the results below are not kept)", file=sys.stderr)
        outcome = Outcome(None)
    return Judged(results, len(reused), outcome)


def may_pass_with_extra_time(result: GradeResult) -> bool:
    """Whether a package submission misses what it must get by timing out (with_extra_time grades it again)."""
    return (result.problem.timing is not None and result.mismatch is not None
            and any(test.verdict is Verdict.TLE for test in result.tests))


def with_extra_time(options, runs: list[SolutionRun], graded: list[GradeResult]) -> list[GradeResult]:
    """`graded` (the results of `runs`), where each package submission that misses what it must get by
    timing out is graded again at its limit's margin (time_limit_to_tle x the limit) and, when it gets
    what it must there, stands with that result, said in a note: problemtools judges every submission
    at both and calls that "OK with extra time" (breaker 50b: kth2019 assassins' wrong_answer/
    monte_carlo.cc, TLE at the computed 1 s and WA at 2 s, was a MISMATCH here and OK there). The
    command records what this returns (judge_runs' `then`), so its history says what it showed."""
    from .problems.timing import MAX_LIMIT
    from .reports.history import TIMING_COMMAND

    slow = [index for index, result in enumerate(graded) if may_pass_with_extra_time(result)]
    if not slow:
        return graded
    again = []
    for index in slow:
        run = runs[index]
        margin = min(MAX_LIMIT, run.problem.time_limit * run.problem.timing.time_limit_to_tle)
        again.append(SolutionRun(replace(run.problem, time_limit=margin), run.solution, run.tests, run.stop_on_failure,
                                 run.expected, run.expected_score, verdicts_only=run.verdicts_only))
    print(f"Grading {count(len(again), 'submission')} that {'times' if len(again) == 1 else 'time'} out at the limit "
          "again with extra time, as problemtools does")
    results = list(graded)
    for index, run, result in zip(slow, again, judge_runs(options, TIMING_COMMAND, again, False).results):
        if result.mismatch is None:
            low = graded[index]
            print(f"judge: note: {display_path(result.solution)} gets {low.outcome} at the {low.problem.time_limit:g} s "
                  f"limit and {result.outcome} at {run.problem.time_limit:g} s ({low.problem.timing.margin_words}): "
                  f"as expected with extra time, which problemtools accepts", file=sys.stderr)
            print(f"  {'ok':8} {display_path(result.solution)}: {result.outcome} with extra time", flush=True)
            results[index] = result
    return results


def _may_time_out(run: SolutionRun) -> bool:
    """Whether a stored solution is expected to time out: its tests take the longest (each one its whole
    limit), so it is graded first and the grading ends on short tests, both workers busy to the end
    (issue 48), not on a TLE test run alone while the other worker waits."""
    expected = run.expected
    if expected is None:
        return False
    final = expected.final if expected.final is not None else frozenset().union(
        *(requirement.required for requirement in expected.requirements))
    return Verdict.TLE in final


def judge_runs(options, command: str, runs: list[SolutionRun], fresh: bool, line=None,
               spares: Spares | None = None, meanwhile: Callable[[], None] | None = None,
               then: Callable[[list[SolutionRun], list[GradeResult]], list[GradeResult]] | None = None) -> Judged:
    """Grade runs (reusing unchanged results unless `fresh`) with progress, and record them in the history.
    `line(result)` is printed as each solution finishes; `spares`: zygotes the command started ahead;
    `meanwhile`: work done while the tests run (grade_runs); `then(runs, results)`: the results as
    recorded, from those graded (with_extra_time's)."""

    def grade(to_grade: list[SolutionRun]) -> list[GradeResult]:
        if not to_grade:
            return []
        with Progress(sum(len(run.tests) for run in to_grade), len(to_grade), workers=worker_count(options),
                      plan=None if fresh else history.plan(to_grade)) as progress:  # the ETA: the history's record

            def meanwhile_too() -> None:
                if fresh:
                    progress.planned(history.plan(to_grade))
                if meanwhile:
                    meanwhile()

            graded = grade_runs(options, to_grade, progress, line, spares, meanwhile_too if fresh or meanwhile else None)
        return then(to_grade, graded) if then else graded

    def reused(result: GradeResult) -> None:
        if line:
            print(f"{line(result)} (reused)", flush=True)

    history = OpenedOnUse(options.history, options.source_limit * 1024)
    try:
        machines_of = pool_for(options).machines if options.cluster and not fresh else None  # its workers'
        return grade_and_record(history, command, options.argv, runs, fresh, grade, reused, machines_of)
    finally:
        history.close()


class OpenedOnUse:
    """The run history, opened (its module, SQLite and the engine key) when first used, on whichever
    thread uses it first: a fresh run, which reuses nothing, first needs it for its progress's plan
    on the thread that works while the tests run, so the judge reaches its first test without it (a
    history that cannot be opened is then reported when the run is recorded)."""

    def __init__(self, path, source_limit: int):
        self._path, self._source_limit = path, source_limit
        self._opened = None
        self._lock = threading.Lock()

    def __getattr__(self, name: str):
        with self._lock:
            if self._opened is None:
                from .reports.history import History

                self._opened = History(self._path, self._source_limit)
        return getattr(self._opened, name)

    def close(self) -> None:
        if self._opened is not None:
            self._opened.close()


def grade_runs(options, runs: list[SolutionRun], progress: Progress, line=None, spares: Spares | None = None,
               meanwhile: Callable[[], None] | None = None) -> list[GradeResult]:
    """Grade runs on a pool of `options.jobs` workers (or the cluster's), and say when isolation is partial.
    `meanwhile` runs on a thread of its own from when the judge starts to wait (the pool's first
    worker has its zygote and loads the solution; not before: the judge's path to that point is then
    its own) until the grading ends; a failure there is left for whoever needs that work to meet
    again, where it is reported."""
    warning = None if options.cluster else missing_layers_warning()  # on a cluster, the workers' counts
    if warning:
        print(warning, file=sys.stderr)
    helper = threading.Thread(target=_quietly, args=(meanwhile,), daemon=True) if meanwhile else None

    def start_helper() -> None:
        if helper and helper.ident is None:  # (the pool calls back under its lock: one start)
            helper.start()

    shown: dict[tuple, str] = {}  # each run's path as shown, made once: display_path takes 0.25 ms

    def test_done(run: SolutionRun, index: int, test: TestResult) -> None:
        name = shown.get(run.key)
        progress.test_done(name if name is not None else shown.setdefault(run.key, display_path(run.solution)))
        start_helper()  # a grading that loads nothing (answer files) starts it here

    pool = pool_for(options, spares)
    started = time.monotonic()
    try:  # the cluster's pool is the command's (its later runs use it): the command line closes it
        with nullcontext(pool) if options.cluster else pool:
            results = pool.grade(runs, on_test=test_done, on_started=start_helper,
                                 on_done=lambda result: progress.solution_done(line(result) if line else None))
    finally:  # (interrupted too: what it opened is used next, by the record of the interruption)
        if helper and helper.ident is not None:
            helper.join()
    for problem in sorted(pool.warnings):
        print(f"judge: warning: {problem}", file=sys.stderr)
    pool.warnings.clear()  # said once, though a cluster's pool grades the command's next run too
    if not options.cluster and time.monotonic() - started >= BUSY_AFTER_SECONDS:
        _say_if_busy()
    return results


# A grading this long (seconds: the load average's minute, mostly) on a machine whose load is over
# BUSY_LOAD x its CPUs says so: CPU times read higher beside other work (cache and memory shared).
BUSY_AFTER_SECONDS, BUSY_LOAD = 30.0, 2.0


def _say_if_busy() -> None:
    """A note that the machine was busy, and what that costs (docs/verdicts.md: a test's CPU time read
    1.3-2.6x its quiet figure at load 46 on 2 CPUs), so a close call is not taken for the solution's."""
    cpus, load = os.cpu_count() or 1, os.getloadavg()[0]
    if load > BUSY_LOAD * cpus:
        print(f"judge: note: the machine was busy while grading (load {load:.1f} on {cpus} CPUs): a test's CPU time "
              f"reads higher beside other work (docs/verdicts.md), so a verdict near its limit may differ on a quiet "
              f"machine", file=sys.stderr)


# While work meanwhile computes, the interpreter's switch interval (seconds): a worker thread woken
# by its zygote's answer waits at most this long for the GIL (at the default 5 ms, a trivial test
# took 9.5 ms beside a busy thread instead of 3.0; 4.3-5.1 ms at 0.5 ms). Only then: two worker
# threads judging real tests at 0.5 ms lose to forced switches (benchmarks/cluster.py's local -j2
# baseline: 257 tests/s against 328 at the default, one run each).
MEANWHILE_SWITCH_INTERVAL = 0.0005


def _quietly(work: Callable[[], None]) -> None:
    """The helper thread's body: `work`, with woken worker threads served promptly, any failure left
    for where the work is needed again."""
    switch_interval = sys.getswitchinterval()
    sys.setswitchinterval(min(switch_interval, MEANWHILE_SWITCH_INTERVAL))
    try:
        work()
    except Exception:  # noqa: BLE001 - done again where it is needed, which says what failed
        pass
    finally:
        sys.setswitchinterval(switch_interval)


def pool_for(options, spares: Spares | None = None):
    """A local Pool of -j workers (taking `spares` first), or the Dask cluster of --cluster /
    JUDGE_CLUSTER (connected once per command; only then is dask imported)."""
    if not options.cluster:
        return Pool(options.jobs, source_limit=options.source_limit * 1024, spares=spares)
    if getattr(options, "cluster_pool", None) is None:
        from .cluster.client import ClusterPool
        options.cluster_pool = ClusterPool(options.cluster, options.cluster_require_isolation,
                                           source_limit=options.source_limit * 1024)
    return options.cluster_pool


def worker_count(options) -> int:
    """How many tests run at once, for the headers."""
    return pool_for(options).jobs if options.cluster else options.jobs
