"""The grading queue: the store's queued submissions graded several at once, fairly between teams,
each through the run owner (runs.grade_and_record: recorded in the run history like any run) on one
pool kept for the server's life (local, or the --cluster's).

At -j N, the oldest queued submission of every team is graded at once (a team's verdicts come in its
submission order); they are compiled by 2N builder threads (and N spare ones for teams that had less of
the machine than those whose compiles hold the others) and their tests share the pool's N workers
through a feed (engine/feed.py): a lone submission of quick tests takes every worker, a slow one keeps
one, a submission that comes while every worker is busy takes the first that finishes a test, and a
worker turns, after 3 s on a submission, to a waiting one that has had less of the workers' time (the
least served first). So other teams' slow or time-limit-exceeded submissions do not hold back a team's
trivial one (issue 47: a TLE held the one grading thread, and the other teams waited 21 s; breaker 54a
and 54d: slow ones held every place). Rejudges go after new submissions, at most N at once. On a
--cluster, one submission at a time (Dask spreads its tests over its workers).
A judgement keeps each test's verdict, figures and message, and what the first failing test printed
and returned: the coach's page shows them beside the expected answer; a team's sees none of them
(views.py). A judge failure is an IE judgement with its reason, which a coach can rejudge; the
submission is never lost.
"""

from __future__ import annotations

import io
import itertools
import shutil
import sqlite3
import sys
import tempfile
import threading
import time
import traceback
import unicodedata
import zipfile
import zlib
from pathlib import Path, PurePosixPath

from ..engine.feed import Feed, FeedClosed
from ..engine.pool import SolutionRun
from ..errors import JudgeInputError
from ..protocol import TREE_DEPTH, SourceError, check_tree_name, described, escaped
from ..runs import OpenedOnUse, grade_and_record, pool_for
from ..verdicts import Verdict
from .store import full, private

MAX_FILES = 100  # files in a submitted zip
NAME_BYTES = 100  # a file's (or folder's) name, in UTF-8: within every file system's 255
STOP_WAIT = 5  # seconds a stopping server waits for its grading threads to end
# seconds before a judgement that could not be stored (a full disk) is written again, or a submission
# whose grading failed beyond a judge error is taken again
RETRY_AFTER = 30


class Grader:
    def __init__(self, store, problems: dict, contest, options):
        self.store, self.problems, self.contest, self.options = store, problems, contest, options
        self.live: dict[int, dict] = {}  # submission id -> tests done so far (and their figures), while it is graded
        self.version = 0  # bumped on every change a page may show (the event streams poll it)
        self._team_versions: dict[int, int] = {}  # team -> the version of its last change
        self._all_version = 0  # the version of the last change to every team's view (a rejudge, a freeze)
        self._wake = threading.Condition()
        self._served: dict[int, int] = {}  # team -> when it was last served (a counter)
        self._turn = 0
        self._stop = False
        self._in_flight: dict[int, int] = {}  # submission -> its team, while it is graded
        self._rejudging: set[int] = set()  # those of them judged before (a coach's rejudge)
        # a cluster's: one at a time; a local pool's: one per team, however many, so that a team's submission
        # is in the feed while slow ones hold every worker, and takes the next worker to end a test (breaker
        # 54d: with 4N at once, 4N teams' slow submissions held every place for minutes)
        self._at_once = 1 if options.cluster else sys.maxsize
        self._thread = threading.Thread(target=self._loop, name="grader", daemon=True)
        self._gradings: list[threading.Thread] = []
        self._work = Path(tempfile.mkdtemp(prefix="judge-serve-"))
        self._pool = None
        self._feed = None if options.cluster else Feed(builds_apart=True)  # a local pool's tests, shared by the gradings
        self._pool_lock = threading.Lock()  # (the pool is made once; a cluster's grades one run at a time)
        private(Path(options.history))  # (it holds every submission's source too)
        self._history = OneAtATime(OpenedOnUse(options.history, options.source_limit * 1024))

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Take no more submissions; a grading under way is cut short (its tests die with the pool) and
        its submission stays queued for the next start (never a judgement of a grading cut short)."""
        with self._wake:
            self._stop = True
            self._wake.notify_all()
        if self._thread.ident is not None:  # (started)
            self._thread.join(timeout=STOP_WAIT)
        if self._feed is not None:
            self._feed.close()  # (idle workers end; a grading under way gets FeedClosed)
        under_way = any(thread.is_alive() for thread in self._gradings)
        if self._pool is not None and not self.options.cluster:
            self._pool.cancel() if under_way else self._pool.close()
        for thread in self._gradings:
            thread.join(timeout=STOP_WAIT)
        if not any(thread.is_alive() for thread in self._gradings + [self._thread]):
            self._history.close()
        shutil.rmtree(self._work, ignore_errors=True)

    def wake(self, team_id: int | None = None) -> None:
        """A submission of `team_id` was stored (None: something every team may see changed, as a
        rejudge or a freeze)."""
        with self._wake:
            self._changed(team_id)
            self._wake.notify_all()

    def _changed(self, team_id: int | None) -> None:
        self.version += 1
        if team_id is None:
            self._all_version = self.version
        else:
            self._team_versions[team_id] = self.version

    def team_version(self, team_id: int | None) -> int:
        """The version of the last change a team's own view may show (a coach's: any change); an event
        stream recomputes only when it moves, so one team's grading costs the other teams' streams nothing."""
        if team_id is None:
            return self.version
        return max(self._team_versions.get(team_id, 0), self._all_version)

    def next_submission(self) -> int | None:
        """The next submission to grade: the oldest of the team served longest ago, among the queued ones
        of the teams with none being graded; a rejudge only when no such submission waits, at most one per
        worker at once, beside a team's own (breaker 54b F4: a team's new submission waited 14 s behind
        the coach's rejudge of its three earlier ones; DOMjudge judges rejudges after new submissions)."""
        busy = {team for number, team in self._in_flight.items() if number not in self._rejudging}
        queued = self.store.queued()
        fresh = [row for row in queued if not row["judged_before"] and row["team_id"] not in busy]
        if fresh:
            chosen = min(fresh, key=lambda row: (self._served.get(row["team_id"], -1), row["id"]))
            self._turn += 1
            self._served[chosen["team_id"]] = self._turn
            return chosen["id"]
        rejudges = [row for row in queued if row["judged_before"] and row["id"] not in self._in_flight]
        if not rejudges or len(self._rejudging) >= max(1, self.options.jobs):
            return None
        chosen = rejudges[0]["id"]
        self._rejudging.add(chosen)
        return chosen

    def _loop(self) -> None:
        """Start a grading thread for each submission taken (a cluster's: one at a time; a local pool's: one per team)."""
        while True:
            with self._wake:
                while not self._stop and len(self._in_flight) >= self._at_once:
                    self._wake.wait()
                if self._stop:
                    return
                number = self.next_submission()
                if number is None:
                    self._wake.wait(timeout=5)
                    continue
                self._in_flight[number] = self.store.submission(number)["team_id"]
                self._gradings = [thread for thread in self._gradings if thread.is_alive()]
                thread = threading.Thread(target=self._grading, args=(number,), name=f"grading {number}", daemon=True)
                self._gradings.append(thread)
            thread.start()

    def _grading(self, number: int) -> None:
        """One grading thread's work: the submission graded and its judgement written."""
        try:
            self.grade(number)
        except Exception:  # noqa: BLE001 - the store failed: said, retried later, the server lives on
            print(f"judge: serve: submission {number} could not be graded:", file=sys.stderr)
            traceback.print_exc(file=sys.stderr)
            with self._wake:
                self._wake.wait_for(lambda: self._stop, timeout=RETRY_AFTER)
        finally:
            self.finished(number)

    def finished(self, number: int) -> None:
        """A grading ended: its team counts as served now, not when its grading began (breaker 53b F1b:
        a team whose compiles held a place for minutes was served "longest ago" once they ended, so
        its next took the freed place before the submissions other teams sent meanwhile)."""
        with self._wake:
            team = self._in_flight.pop(number, None)
            if number in self._rejudging:
                self._rejudging.discard(number)
            elif team is not None:
                self._turn += 1
                self._served[team] = self._turn
            self._wake.notify_all()

    def grade(self, number: int) -> None:
        """Grade one submission and write its judgement (an IE with the reason when the judge fails)."""
        row = self.store.submission(number)
        started = time.time()
        problem = self.problems.get(row["problem"])
        folder = self._work / str(number)
        try:
            if problem is None:
                raise JudgeInputError(f"the contest has no problem {row['problem']!r} any more")
            path = materialize(row, folder)
            finished: dict[str, float] = {}  # test name -> when its run ended (a CLICS run's time)
            result = self._run(number, row["team_id"], problem, path, finished)
            failing = result.first_failure  # (its output and value: the coach's, beside the expected one)
            tests = [{"name": t.name, "verdict": str(t.verdict) if t.verdict else None, "cpu_ms": round(t.cpu_ms, 1),
                      "memory_mib": round(t.memory_mib, 1), "message": t.message}
                     | ({"ended": finished[t.name]} if t.name in finished else {})
                     | ({"returned": t.returned, "output": t.output} if t is failing else {}) for t in result.tests]
            verdict = str(result.verdict)
            score = self._score(result)
            message = result.compile_message or (result.first_failure.message if result.first_failure else "")
            max_cpu = max((t.cpu_ms for t in result.tests if t.verdict), default=0.0)
        except FeedClosed:  # the server is stopping: the submission stays queued
            self.live.pop(number, None)
            return
        except Exception as err:  # noqa: BLE001 - the judge's fault: an IE to rejudge, never a lost submission
            print(f"judge: serve: submission {number}: judge error: {err}", file=sys.stderr)
            traceback.print_exc(file=sys.stderr)
            verdict, score, max_cpu, tests = str(Verdict.IE), None, 0.0, []
            message = f"judge error: {err}"
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if self._stop:  # the server is stopping: its pool may have cut this grading short
            self.live.pop(number, None)
            return
        self._record(number, row["team_id"], started, verdict, score, max_cpu, message, tests)

    def _record(self, number: int, team_id: int, *judgement) -> None:
        """Write a submission's judgement; one the store cannot take (a full disk) stays in memory, its
        submission queued, and is written again every RETRY_AFTER seconds, a line each time (breaker
        50c: the submission was graded again and again, a traceback each time); the server's stop
        leaves it queued, graded at the next start."""
        while True:
            try:
                self.store.record_judgement(number, *judgement)
                break
            except sqlite3.Error as err:
                print(f"judge: serve: submission {number} could not be recorded ({getattr(err, 'why', err)}): it "
                      f"stays queued, and its "
                      f"judgement is written again in {RETRY_AFTER} s", file=sys.stderr, flush=True)
                if not full(err):
                    traceback.print_exc(file=sys.stderr)
                with self._wake:
                    if self._wake.wait_for(lambda: self._stop, timeout=RETRY_AFTER):
                        self.live.pop(number, None)
                        return
        with self._wake:
            self.live.pop(number, None)
            self._changed(team_id)

    def _run(self, number: int, team_id: int, problem, path: Path, finished: dict[str, float]):
        run = SolutionRun(problem, path, problem.tests, not every_test(self.contest, problem))
        self.live[number] = {"done": 0, "total": len(problem.tests), "tests": []}

        def on_test(run, _index, test) -> None:
            """The figures so far, of the tests the judgement will count (SolutionRun.counted: none after the
            first failure); in a run that stops there, only those before the first test not finished yet,
            which may still fail and withdraw the later ones (issue 47: a later test's MLE showed 262 MiB
            while it was graded, then the judgement said 128)."""
            if test.verdict is not None:
                finished[test.name] = time.time()
            counted = run.counted()
            if run.stop_on_failure:
                counted = list(itertools.takewhile(lambda result: result is not None, counted))
            counted = [result for result in counted if result is not None and result.verdict is not None]
            self.live[number] = {"done": len(counted), "total": len(problem.tests),
                                 "tests": [{"name": t.name, "cpu_ms": t.cpu_ms, "memory_mib": t.memory_mib}
                                           for t in counted]}
            with self._wake:
                self._changed(team_id)

        judged = grade_and_record(self._history, "serve", self.options.argv, [run], True,
                                  lambda runs: self._grade_runs(runs, on_test, team_id))
        return judged.results[0]

    def _grade_runs(self, runs: list[SolutionRun], on_test, team_id: int):
        """Grade a submission's runs: on the local pool's feed, beside the other gradings under way (its
        pool made, and fed on a thread of its own, at the first); on a cluster, one grading at a time."""
        with self._pool_lock:
            if self._pool is None:
                self._pool = pool_for(self.options)
                if self._feed is not None:
                    threading.Thread(target=self._feeding, name="grading pool", daemon=True).start()
            if self._feed is None:
                return self._pool.grade(runs, on_test=on_test)
        return self._feed.grade(runs, on_test, share=team_id)

    def _feeding(self) -> None:
        """The pool's workers take the feed's tests until it closes (and it closes if they fail, so no
        grading waits for them for ever)."""
        try:
            self._pool.feed(self._feed)
        finally:
            self._feed.close()

    def _score(self, result) -> float | None:
        """A scoring problem's total; an ioi contest's pass-fail problem: the share of tests passed, out of 100."""
        if result.scored is not None:
            return round(result.scored.total, 3)
        if self.contest.scoring == "ioi":
            return 0.0 if not result.tests or result.compile_message else round(100 * result.passed / len(result.tests), 2)
        return None


class OneAtATime:
    """The run history, shared by the gradings under way: one call at a time (they share its SQLite
    connection, whose transactions must not interleave)."""

    def __init__(self, history):
        self._history, self._lock = history, threading.Lock()

    def __getattr__(self, name: str):
        found = getattr(self._history, name)
        if not callable(found):
            return found

        def one_at_a_time(*args, **kwargs):
            with self._lock:
                return found(*args, **kwargs)

        return one_at_a_time


def every_test(contest, problem) -> bool:
    """Whether a submission runs every test (an ioi contest, a scoring problem), or stops at its first failure."""
    return contest.scoring == "ioi" or problem.grading is not None


def materialize(row, folder: Path) -> Path:
    """The submission's files under `folder`: its one file, or a zip's files (one file: that file; more:
    the folder, a multi-file program). Names are checked: no path out of the folder, no link."""
    folder.mkdir(parents=True)
    if not row["zipped"]:
        path = folder / safe_name(row["filename"])
        path.write_bytes(row["source"])
        return path
    files = unzip(row["source"])
    for name, data in files.items():
        target = folder.joinpath(*PurePosixPath(name).parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    if len(files) == 1:
        return folder / next(iter(files))
    return folder


def safe_name(name: str) -> str:
    """An uploaded file's name: the last part of what the browser sent (some send a path, with either
    separator), if plain, else refused."""
    name = unicodedata.normalize("NFC", name)
    base = PurePosixPath(name.replace("\\", "/")).name
    fault = unplain(base)
    if fault:
        raise JudgeInputError(f"file name {escaped(name)}: {fault} (letters, digits, '_', '-', '+' and '.' only, at "
                              f"most {NAME_BYTES} bytes in UTF-8)")
    return base


def unplain(name: str) -> str | None:
    """What keeps a name (in NFC: a name in NFD, as macOS writes `café.py`, has a combining accent, no
    letter) from being one that every file system and extractor takes as one name in its folder, or
    None: letters, digits, '_', '-', '+', '.', not starting with '.' (no backslash: some extractors
    take it for a separator), at most NAME_BYTES in UTF-8 (97 full-width letters were over the disk's
    255 bytes: an IE). Its refused character is named (breaker 47c: the name was shown, as valid-looking)."""
    odd = next((c for c in name if not (c.isalnum() or c in "_-+.")), None)
    if odd is not None:
        return f"{described(odd)} is refused"
    if not name or name.startswith("."):
        return "an empty name" if not name else "a name that starts with a dot"
    size = len(name.encode())
    return f"{size} bytes in UTF-8" if size > NAME_BYTES else None


def unzip(data: bytes, limit: int | None = None) -> dict[str, bytes]:
    """A zip's regular files by their relative path, every name checked; `limit`: most bytes in all.
    A zip that does not read as its headers say (a member's size or CRC that lies, data cut short) is
    refused with the reader's own words."""
    try:
        return _members(zipfile.ZipFile(io.BytesIO(data)), limit)
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, OSError) as err:
        raise JudgeInputError(f"not a zip file that reads: {err}") from None


def _members(archive: zipfile.ZipFile, limit: int | None) -> dict[str, bytes]:
    files, total = {}, 0
    for info in archive.infolist():
        if info.is_dir():
            continue
        name = unicodedata.normalize("NFC", info.filename)  # (as the files are laid out, and compared)
        parts = name.split("/")
        fault = next(filter(None, map(unplain, parts)), None)
        if fault:
            raise JudgeInputError(f"zip member {escaped(name)}: not a plain relative path: {fault} (each name "
                                  f"letters, digits, '_', '-', '+', '.', at most {NAME_BYTES} bytes, and '/' between "
                                  "folders)")
        if len(parts) > TREE_DEPTH:  # (and a path within every file system's bounds)
            raise JudgeInputError(f"zip member {name!r}: in folders more than {TREE_DEPTH - 1} deep, "
                                  "which the judge does not read")
        if (info.external_attr >> 16) & 0o170000 == 0o120000:
            raise JudgeInputError(f"zip member {name!r} is a link")
        if info.flag_bits & 0x1 or info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise JudgeInputError(f"zip member {name!r}: encrypted, or compressed other than by deflate")
        total += info.file_size
        if len(files) >= MAX_FILES or (limit is not None and total > limit):
            raise JudgeInputError("the zip holds too much")
        if name in files:
            raise JudgeInputError(f"zip member {name!r} is in the zip twice")
        files[name] = archive.read(info)
    if not files:
        raise JudgeInputError("the zip holds no file")
    _laid_out(archive, files)
    if len(files) > 1:
        _tree_names(files)
    return files


def _tree_names(files: dict[str, bytes]) -> None:
    """Refuses a multi-file zip the grader would judge CE for a name it does not take (the grader's
    own rule: `ＡＢＣ.py` or `-h.py` beside main.py was taken, then judged CE); one file is graded as
    a single file, whose name the grader does not read this way."""
    for name in files:
        parts = name.split("/")
        try:
            for end, part in enumerate(parts, 1):
                check_tree_name(part, "/".join(parts[:end]))
        except SourceError as err:
            raise JudgeInputError(f"zip member {escaped(name)}: {err}") from None


def _laid_out(archive: zipfile.ZipFile, files: dict[str, bytes]) -> None:
    """Refuses a zip whose files cannot all be laid out on a disk: a file named as a folder of
    another file, or as a folder the zip lists (`a` and `a/b.py` were taken, then their grading
    failed: IE, "[Errno 17] File exists")."""
    folders = {unicodedata.normalize("NFC", info.filename.rstrip("/")) for info in archive.infolist() if info.is_dir()}
    folders |= {"/".join(name.split("/")[:end]) for name in files for end in range(1, name.count("/") + 1)}
    clash = next((name for name in files if name in folders), None)
    if clash is not None:
        raise JudgeInputError(f"zip member {clash!r}: a file, and a folder of the zip's too")
