"""The run history: every grade, check and report run recorded in one SQLite file, so that a re-run
can reuse what has not changed and every run can say what changed since the one before.

A recorded result may stand in for a new run of the same solution only when nothing that decides its
verdict has changed: the solution's content, the problem's content (tests, limits, checker), the
engine's own source and the machine that graded it (its host, and the compiler of the solution's
language; a cluster's worker, whose result stands in only for a run on such workers).
Results with an internal error (IE: the judge's fault, not the solution's) are kept for the record
but never reused; an interrupted run (Ctrl-C, a closed pipe) is recorded as such, without results.

`check` stops a solution at its first failing test, `report` runs every test. A full run (every test
ran) can serve either; a stopped run serves only another stopped run, and is trimmed to its first
failure so that a reused check prints what a fresh one would.
"""

from __future__ import annotations

import sqlite3
import sys
import time
from collections.abc import Callable
from pathlib import Path

from ..engine.pool import SolutionRun
from ..engine.results import GradeResult, TestResult
from ..languages.machine import MACHINES_JOINED, host_id, verdict_machine
from ..errors import JudgeInputError
from ..problems.catalog import display_path, own_path
from ..protocol import SOURCE_LIMIT
from ..problems.format import Problem
from ..record import field, record
from ..text import format_score
from ..verdicts import Verdict
from .eta import Planned, guessed_costs
from .fingerprints import engine_key, problem_hash, solution_hash

SLOWER_RATIO, SLOWER_MS = 1.25, 20.0  # "slowest CPU grew beyond noise": more than 25% and 20 ms

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, started REAL NOT NULL, finished REAL, command TEXT NOT NULL, argv TEXT NOT NULL,
    machine TEXT NOT NULL, engine TEXT NOT NULL, status TEXT NOT NULL  -- complete | interrupted
);
CREATE TABLE IF NOT EXISTS results (
    id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id),
    problem TEXT NOT NULL, problem_hash TEXT NOT NULL, time_limit REAL NOT NULL, memory_limit INTEGER NOT NULL,
    solution TEXT NOT NULL, solution_hash TEXT NOT NULL, expected TEXT, verdict TEXT NOT NULL,
    compile_message TEXT NOT NULL, baseline_mib REAL NOT NULL,
    all_tests INTEGER NOT NULL,  -- the problem's whole test list was asked for (not --examples / --test)
    full INTEGER NOT NULL,       -- every asked-for test ran (or the solution did not load)
    reusable INTEGER NOT NULL,   -- no internal error
    tests_from INTEGER,          -- reused: the result whose tests these are (else NULL: its own rows)
    score REAL,                  -- a scoring problem's total (else NULL)
    machine TEXT                 -- verdict_machine() of where it was graded: the host and the solution's
                                 -- compiler (a cluster's several joined by " + "; NULL: recorded by an
                                 -- older judge, which is never reused)
);
CREATE TABLE IF NOT EXISTS tests (
    result_id INTEGER NOT NULL REFERENCES results(id), position INTEGER NOT NULL, name TEXT NOT NULL,
    verdict TEXT, cpu_ms REAL NOT NULL, wall_ms REAL NOT NULL, memory_mib REAL NOT NULL, message TEXT NOT NULL,
    returned TEXT NOT NULL, input TEXT NOT NULL, output TEXT NOT NULL, score REAL,
    PRIMARY KEY (result_id, position)
);
CREATE INDEX IF NOT EXISTS results_by_content ON results (solution_hash, problem_hash);
CREATE INDEX IF NOT EXISTS results_by_solution ON results (solution, problem);
"""
TIMING_COMMAND = "time limit"  # the runs that time a package's submissions for its computed limit: at the
# timing's cap, each stopped at its first failure, they are never the last run a solution's result is compared with
TEST_COLUMNS = ("name", "verdict", "cpu_ms", "wall_ms", "memory_mib", "message", "returned", "input", "output", "score")
# columns added since the first schema: (table, column, type), added to an older file when it is opened
ADDED_COLUMNS = (("results", "score", "REAL"), ("tests", "score", "REAL"), ("results", "machine", "TEXT"))


# -- what a run found changed ---------------------------------------------------------------------

@record(frozen=True)
class Change:
    problem: str
    solution: str
    before: str
    after: str
    slowest_before_ms: float
    slowest_after_ms: float

    @property
    def what(self) -> str:
        if self.before != self.after:
            return f"{self.before} -> {self.after}"
        return f"slowest CPU {self.slowest_before_ms:.0f} -> {self.slowest_after_ms:.0f} ms"

    def to_json(self) -> dict:
        return {"solution": self.solution, "problem": self.problem, "before": self.before, "after": self.after,
                "slowest_cpu_ms_before": round(self.slowest_before_ms, 1),
                "slowest_cpu_ms_after": round(self.slowest_after_ms, 1)}


@record
class _Record:
    """What a solution's tests cost in its latest recorded run (seconds: CPU time times its wall
    factor), the verdict of each test that ran, and whether every test ran."""

    costs: dict[str, float]
    verdicts: dict[str, str]
    complete: bool
    factor: float


class NotRecorded(Exception):
    """A run graded but not written to the history (a full disk): its results stand, nothing is kept."""


@record
class Outcome:
    """What recording a run produced: the changes against earlier runs, and solutions seen first."""

    run_id: int | None  # None: not recorded (NotRecorded)
    changes: list[Change] = field(default_factory=list)
    first_seen: int = 0


def slowest_in_common(before: list[TestResult], after: list[TestResult]) -> tuple[float, float]:
    """The slowest CPU of each result over the tests that ran in both (a stopped check ran fewer)."""
    ran_before = {t.name: t.cpu_ms for t in before if t.verdict is not None}
    common = [t for t in after if t.verdict is not None and t.name in ran_before]
    if not common:
        return 0.0, 0.0
    return max(ran_before[t.name] for t in common), max(t.cpu_ms for t in common)


def change_between(before: GradeResult, after: GradeResult) -> Change | None:
    return change_of(after.problem.slug, after.solution, (before.outcome, before.tests), (after.outcome, after.tests))


def change_of(problem: str, solution: Path, before: tuple[str, list[TestResult]],
              after: tuple[str, list[TestResult]]) -> Change | None:
    """A solution's change between two results, each (verdict, tests): another verdict, or a slowest
    CPU time that grew beyond noise."""
    slow_before, slow_after = slowest_in_common(before[1], after[1])
    slower = slow_after > slow_before * SLOWER_RATIO and slow_after - slow_before > SLOWER_MS
    if before[0] == after[0] and not slower:
        return None
    return Change(problem, display_path(solution), before[0], after[0], slow_before, slow_after)


# -- the store --------------------------------------------------------------------------------------

class History:
    """One SQLite file; each run is written in a single transaction when it ends."""

    def __init__(self, path: Path, source_limit: int = SOURCE_LIMIT, create: bool = True):
        """`create`: make the file (and its folder) where there is none; else a missing file reads as
        an empty history, and nothing is made (`judge history` in a folder that is no project)."""
        self.path = path
        self.engine = engine_key(source_limit)
        self._problem_hashes: dict[Path, str] = {}  # read once per run: the folder does not change under it
        try:
            self.in_memory = not create and not path.exists()
            if self.in_memory:
                self.db = sqlite3.connect(":memory:", check_same_thread=False)
                self.db.executescript(SCHEMA)
                return
            path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(path, timeout=30, check_same_thread=False)  # opened where first used
            # Write-ahead log without a sync per commit: a run costs no disk flush (a crash of the
            # machine may lose the last run's record, never the file), and readers never block a writer.
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = NORMAL")
            self.db.executescript(SCHEMA)
            self._migrate()
        except (OSError, sqlite3.Error) as err:
            if create or not self._read_only():
                raise JudgeInputError(f"cannot open the run history: {err}", path) from None

    def close(self) -> None:
        self.db.close()

    def _read_only(self) -> bool:
        """Open for reading alone a history that cannot be opened to write (a read-only folder, mount or
        file: `judge history` reads it all the same, issue 45): SQLite's read-only mode, else, where
        the write-ahead log's index cannot be made beside it (so no connection has one open: nothing
        is writing), the file read as immutable. One written by an older judge is read from a copy
        in memory that gets the added columns. Whether it could be opened."""
        if hasattr(self, "db"):  # (the connection whose writing failed)
            self.db.close()
        for mode in ("mode=ro", "immutable=1"):
            self.db = sqlite3.connect(f"{self.path.absolute().as_uri()}?{mode}", uri=True, check_same_thread=False)
            try:
                if self._missing_columns():
                    copy = sqlite3.connect(":memory:", check_same_thread=False)
                    self.db.backup(copy)
                    self.db.close()
                    self.db = copy
                    self.db.executescript(SCHEMA)
                    self._migrate()
                return True
            except sqlite3.Error:
                self.db.close()
        return False

    def _migrate(self) -> None:
        """Add the columns a history file written by an older judge lacks (NULL in its rows: no score)."""
        for table, column, kind in self._missing_columns():
            self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
        self.db.commit()

    def _missing_columns(self) -> list[tuple[str, str, str]]:
        return [(table, column, kind) for table, column, kind in ADDED_COLUMNS
                if column not in {row[1] for row in self.db.execute(f"PRAGMA table_info({table})")}]

    def _problem_hash(self, problem: Problem) -> str:
        if problem.path not in self._problem_hashes:
            self._problem_hashes[problem.path] = problem_hash(problem.path)
        return self._problem_hashes[problem.path]

    # -- reuse

    def reusable(self, run: SolutionRun, machines_of: Callable[[Path, Problem], tuple[str, ...]] | None = None,
                 ) -> tuple[int, GradeResult] | None:
        """A recorded result that can stand for grading `run` now, with the id of its test rows:
        graded on machines all among `machines_of(solution, problem)` (verdict_machine strings: a cluster's
        workers'; default: this machine's alone). A result whose chunks ran on several machines
        records them joined with MACHINES_JOINED."""
        if not asks_every_test(run):
            return None
        machines = set(machines_of(run.solution, run.problem) if machines_of else (verdict_machine(run.solution, run.problem),))
        rows = self.db.execute(
            """SELECT COALESCE(r.tests_from, r.id), r.compile_message, r.baseline_mib, r.machine FROM results r
               JOIN runs ON runs.id = r.run_id
               WHERE r.solution_hash = ? AND r.problem_hash = ? AND r.time_limit = ? AND r.memory_limit = ?
                 AND runs.engine = ? AND runs.status = 'complete' AND r.reusable AND r.all_tests AND (r.full OR ?)
               ORDER BY r.id DESC""",
            (solution_hash(run.solution), self._problem_hash(run.problem), run.problem.time_limit,
             run.problem.memory_limit, self.engine, run.stop_on_failure))
        row = next((row for row in rows if row[3] and set(row[3].split(MACHINES_JOINED)) <= machines), None)
        if row is None:
            return None
        tests_id, compile_message, baseline, machine = row
        tests = self._tests(tests_id)
        if [t.name for t in tests] != [t.name for t in run.tests]:
            return None
        if run.stop_on_failure:
            tests = _trimmed_at_first_failure(tests)
        return tests_id, GradeResult(run.problem, run.solution, tests, compile_message, baseline, run.expected,
                                     run.expected_score, machine)

    def _tests(self, result_id: int) -> list[TestResult]:
        rows = self.db.execute(f"SELECT {', '.join(TEST_COLUMNS)} FROM tests WHERE result_id = ? ORDER BY position",
                               (result_id,))
        return [TestResult(name, Verdict(verdict) if verdict else None, *rest) for name, verdict, *rest in rows]

    # -- recording

    def record(self, command: str, argv: list[str], started: float, runs: list[SolutionRun],
               results: list[GradeResult], reused: dict[int, int], status: str = "complete") -> Outcome:
        """Write one run (a single transaction) and compare it with the latest earlier result of each
        solution (a timing run's excepted: TIMING_COMMAND). `reused` maps an index in `results` to the
        result id whose tests it reused."""
        if self.in_memory:  # a run recorded here would vanish with the process
            raise RuntimeError(f"the history {self.path} was opened with create=False: a run recorded would be lost")
        try:
            return self._write_run(command, argv, started, runs, results, reused, status)
        except sqlite3.OperationalError as err:  # a full disk, an I/O error: said in one line, never a traceback
            raise NotRecorded(f"{display_path(self.path)}: the run is not recorded: {err}") from None

    def _write_run(self, command: str, argv: list[str], started: float, runs: list[SolutionRun],
                   results: list[GradeResult], reused: dict[int, int], status: str) -> Outcome:
        changes, first_seen = [], 0
        with self.db:
            run_id = self.db.execute(
                "INSERT INTO runs (started, finished, command, argv, machine, engine, status) VALUES (?,?,?,?,?,?,?)",
                (started, time.time(), command, " ".join(argv), host_id(), self.engine, status)).lastrowid
            for index, (run, result) in enumerate(zip(runs, results)):
                if status == "complete" and asks_every_test(run):
                    before = self._latest(run, run_id)
                    if before is None:  # a result reused from an identical file's grade was run before
                        first_seen += not self._from_earlier_run(reused.get(index))
                    elif change := change_between(before, result):
                        changes.append(change)
                self._insert(run_id, run, result, reused.get(index))
        return Outcome(run_id, changes, first_seen)

    def _from_earlier_run(self, result_id: int | None) -> bool:
        """A reused result graded by an earlier command, not by this one's timing (a first `check` said 2 of 23 were new)."""
        row = self.db.execute("SELECT runs.command FROM results r JOIN runs ON runs.id = r.run_id WHERE r.id = ?",
                              (result_id,)).fetchone() if result_id is not None else None
        return row is not None and row[0] != TIMING_COMMAND

    def _latest(self, run: SolutionRun, run_id: int) -> GradeResult | None:
        row = self.db.execute(
            """SELECT COALESCE(r.tests_from, r.id), r.compile_message FROM results r JOIN runs ON runs.id = r.run_id
               WHERE r.solution = ? AND r.problem = ? AND r.all_tests AND runs.status = 'complete'
                 AND runs.command != ? AND r.run_id < ? ORDER BY r.id DESC LIMIT 1""",
            (str(own_path(run.solution)), run.problem.slug, TIMING_COMMAND, run_id)).fetchone()
        if row is None:
            return None
        try:
            return GradeResult(run.problem, run.solution, self._tests(row[0]), row[1])
        except ValueError:  # recorded by a judge with a verdict this one no longer has: nothing to compare
            return None

    def _insert(self, run_id: int, run: SolutionRun, result: GradeResult, tests_from: int | None) -> None:
        problem = run.problem
        reusable = (result.verdict is not Verdict.IE and all(t.verdict is not Verdict.IE for t in result.tests)
                    and not run.verdicts_only  # --hide-expected kept no messages: not a whole result
                    and run.stops_above_ms is None)  # stopped below its own limit: not a grading at it
        full = not run.stop_on_failure or result.verdict in (Verdict.AC, Verdict.CE)  # CE: no test can run
        result_id = self.db.execute(
            """INSERT INTO results (run_id, problem, problem_hash, time_limit, memory_limit, solution, solution_hash,
               expected, verdict, compile_message, baseline_mib, all_tests, full, reusable, tests_from, score, machine)
               VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)""",
            (run_id, problem.slug, self._problem_hash(problem), problem.time_limit, problem.memory_limit,
             str(own_path(run.solution)), solution_hash(run.solution), str(run.expected) if run.expected else None,
             str(result.verdict), result.compile_message, result.baseline_mib, asks_every_test(run), full,
             reusable, tests_from, result.scored.total if result.scored else None,
             result.machine or verdict_machine(run.solution, problem))).lastrowid
        if tests_from is None:
            self.db.executemany(
                f"INSERT INTO tests (result_id, position, {', '.join(TEST_COLUMNS)}) "
                f"VALUES ({', '.join('?' * (len(TEST_COLUMNS) + 2))})",
                [(result_id, position, t.name, str(t.verdict) if t.verdict else None, t.cpu_ms, t.wall_ms,
                  t.memory_mib, t.message, t.returned, t.input, t.output, t.score)
                 for position, t in enumerate(result.tests)])

    # -- reading back, for `history`

    def runs(self, limit: int) -> list[tuple]:
        """The latest runs: id, started, command, status, solutions, reused, verdict counts."""
        return self.db.execute(
            """SELECT runs.id, runs.started, runs.finished, runs.command, runs.status, COUNT(r.id),
                      SUM(r.tests_from IS NOT NULL), SUM(instr('/' || r.expected || '/', '/' || r.verdict || '/') > 0),
                      SUM(r.expected IS NOT NULL),  -- (an expected set is stored as AC/WA)
                      GROUP_CONCAT(DISTINCT r.problem)
               FROM runs LEFT JOIN results r ON r.run_id = runs.id
               GROUP BY runs.id ORDER BY runs.id DESC LIMIT ?""", (limit,)).fetchall()

    def timeline(self, solution: str | None, problem: str | None, limit: int) -> list[tuple]:
        """A solution's (or a problem's solutions') recorded results, latest first."""
        where, args = ("r.solution = ?", [solution]) if solution else ("r.problem = ?", [problem])
        rows = self.db.execute(
            f"""SELECT runs.id, runs.started, runs.command, runs.status, r.solution, r.solution_hash, r.expected,
                       r.verdict, r.score, r.all_tests, r.tests_from IS NOT NULL,
                       (SELECT MAX(t.cpu_ms) FROM tests t WHERE t.result_id = COALESCE(r.tests_from, r.id)),
                       (SELECT COUNT(*) FROM tests t WHERE t.result_id = COALESCE(r.tests_from, r.id)
                          AND t.verdict = 'AC'),
                       (SELECT COUNT(*) FROM tests t WHERE t.result_id = COALESCE(r.tests_from, r.id))
                FROM results r JOIN runs ON runs.id = r.run_id WHERE {where}
                ORDER BY r.id DESC LIMIT ?""", (*args, limit)).fetchall()
        return [row[:7] + (_outcome(row[7], row[8]),) + row[9:] for row in rows]  # the verdict with its score

    def known_solutions(self) -> set[str]:
        return {row[0] for row in self.db.execute("SELECT DISTINCT solution FROM results")}

    def plan(self, runs: list[SolutionRun]) -> list[Planned]:
        """For the progress's estimate of the time left: each run's solution (named as the progress
        sees it) and what each of its tests cost in its latest complete run that ran them all,
        whatever its content then. A run that stops at its first failure costs nothing after the test
        that failed then.

        Where that record lacks tests (a `check` stopped the solution at its first failure, and now a
        `report` runs them all) or there is none, the tests are guessed (eta.guessed_costs) from the
        records of every solution of the problem the history knows (the median of each test): a TLE
        solution that `check` stopped on its second test costs half the time limit on each of the
        rest, not the median solution's pace, which made the estimate of a first full `report` after
        a `check` 51-81% too low.

        A test's cost is its CPU time times how much longer than its CPU time the solution's tests
        took in wall time, against the median test of that run: its wall time itself swings with the
        machine's load at the time (from 3.6x to 8.8x its CPU time, quarter by quarter, for roxor's
        TLE solution in one run on the busy dev machine), while some solutions always take longer
        than their CPU time (2.1x for chefgame's TLE solution on a quiet machine, 1.0x for roxor's)."""
        run_ratios: dict[int, float] = {}
        known: dict[str, dict[str, _Record | None]] = {}  # problem -> solution -> its record, each read once
        typical: dict[str, dict[str, float]] = {}
        for slug in {run.problem.slug for run in runs}:  # from every solution of the problem the history knows
            solutions = self.db.execute("SELECT DISTINCT solution FROM results WHERE problem = ?", (slug,)).fetchall()
            known[slug] = {solution: self._record(solution, slug, run_ratios) for (solution,) in solutions}
            seen: dict[str, list[float]] = {}
            for record in filter(None, known[slug].values()):
                for name, cost in record.costs.items():
                    seen.setdefault(name, []).append(cost)
            typical[slug] = {name: sorted(costs)[len(costs) // 2] for name, costs in seen.items()}
        return [self._planned(run, known[run.problem.slug].get(str(own_path(run.solution))), typical[run.problem.slug])
                for run in runs]

    def _record(self, solution: str, slug: str, run_ratios: dict[int, float]) -> _Record | None:
        """A solution's latest record of a run of every test: complete if one ran them all, else the
        latest stopped at a failure."""
        row = self.db.execute(
            """SELECT COALESCE(r.tests_from, r.id), r.run_id, r.full FROM results r JOIN runs ON runs.id = r.run_id
               WHERE r.solution = ? AND r.problem = ? AND r.all_tests AND runs.status = 'complete'
               ORDER BY r.full DESC, r.id DESC LIMIT 1""", (solution, slug)).fetchone()
        if row is None:
            return None
        tests_id, run_id, complete = row
        rows = self.db.execute("SELECT name, cpu_ms, wall_ms, verdict FROM tests WHERE result_id = ? AND verdict IS NOT NULL",
                               (tests_id,)).fetchall()
        if not rows:
            return None
        if run_id not in run_ratios:  # the run's median test: wall over CPU time (tests of 5 ms or more)
            ratios = sorted(wall / cpu for cpu, wall in self.db.execute(
                """SELECT t.cpu_ms, t.wall_ms FROM tests t JOIN results r ON t.result_id = COALESCE(r.tests_from, r.id)
                   WHERE r.run_id = ? AND t.cpu_ms >= 5""", (run_id,)))
            run_ratios[run_id] = ratios[len(ratios) // 2] if ratios else 1.0
        cpu, wall = sum(r[1] for r in rows), sum(r[2] for r in rows)
        own = min(max(wall / cpu / run_ratios[run_id], 0.5), 4.0) if cpu > 0 else 1.0
        return _Record({name: cpu / 1000 * own for name, cpu, _, _ in rows}, {name: v for name, _, _, v in rows},
                       bool(complete), own)

    @staticmethod
    def _planned(run: SolutionRun, record: _Record | None, typical: dict[str, float]) -> Planned:
        name, names = display_path(run.solution), [test.name for test in run.tests]
        if record is None or not record.complete:
            own = [record.costs.get(test) for test in names] if record else [None] * len(names)
            limit = run.problem.time_limit * (record.factor if record else 1.0)
            timed_out = next((i for i, test in enumerate(names) if record and record.verdicts.get(test) == "TLE"), None)
            costs = guessed_costs(own, [typical.get(test) for test in names], limit, timed_out)
        else:
            mean = sum(record.costs.values()) / len(record.costs)
            costs = [record.costs.get(test, mean) for test in names]
        if costs is not None and record is not None and run.stop_on_failure:
            failed = [i for i, test in enumerate(names) if record.verdicts.get(test, "AC") != "AC"]
            costs = costs[:failed[0] + 1] + [0.0] * (len(names) - failed[0] - 1) if failed else costs
        return Planned(name, len(names), costs, guessed=record is None or not record.complete)

    def since_last_report(self, problem: str, run_id: int | None = None) -> SinceLastReport | None:
        """What changed for a problem between its report `run_id` (default: its latest) and the report
        before it, whatever ran in between: the index compares pages with pages (a change that a
        `check` saw first is still one the previous pages did not show). None: no report of it here."""
        runs = self.db.execute(
            """SELECT runs.id, runs.started FROM runs JOIN results r ON r.run_id = runs.id
               WHERE runs.command = 'report' AND runs.status = 'complete' AND r.problem = ? AND runs.id <= ?
               GROUP BY runs.id ORDER BY runs.id DESC LIMIT 2""", (problem, run_id or sys.maxsize)).fetchall()
        if not runs or (run_id is not None and runs[0][0] != run_id):
            return None
        if len(runs) == 1:
            return SinceLastReport(None, None)
        now, before = (self._report_results(problem, found) for found, _ in runs)
        changes = [change for solution, result in now.items() if solution in before
                   if (change := change_of(problem, Path(solution), before[solution], result))]
        return SinceLastReport(runs[1][0], runs[1][1], changes, sorted(display_path(Path(s)) for s in now.keys() - before))

    def _report_results(self, problem: str, run_id: int) -> dict[str, tuple[str, list[TestResult]]]:
        rows = self.db.execute("SELECT solution, verdict, score, COALESCE(tests_from, id) FROM results "
                               "WHERE run_id = ? AND problem = ?", (run_id, problem)).fetchall()
        results = {}
        for solution, verdict, score, tests_id in rows:
            try:
                results[solution] = (_outcome(verdict, score), self._tests(tests_id))
            except ValueError:  # a verdict this judge no longer has: nothing to compare
                pass
        return results


@record
class SinceLastReport:
    """A problem's report against the one before it: None for the first report."""

    previous_run: int | None
    previous_started: float | None
    changes: list[Change] = field(default_factory=list)
    new: list[str] = field(default_factory=list)  # solutions the previous report did not have


def _outcome(verdict: str, score: float | None) -> str:
    """A recorded verdict as GradeResult.outcome shows it: with a scoring problem's score."""
    return verdict if score is None else f"{verdict} {format_score(score)}"


def asks_every_test(run: SolutionRun) -> bool:
    """Not a partial run (`grade --examples`, `--test`): only such runs are compared and reused."""
    return len(run.tests) == len(run.problem.tests) and all(
        a.name == b.name for a, b in zip(run.tests, run.problem.tests))


def _trimmed_at_first_failure(tests: list[TestResult]) -> list[TestResult]:
    """What a check (stopping at the first failure) reports from a run that went on past it."""
    failed = next((i for i, t in enumerate(tests) if t.verdict not in (Verdict.AC, None)), None)
    if failed is None:
        return tests
    return tests[: failed + 1] + [TestResult(t.name, None) for t in tests[failed + 1:]]


@record
class Judged:
    results: list[GradeResult]
    reused: int
    outcome: Outcome
