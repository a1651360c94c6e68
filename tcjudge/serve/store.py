"""The contest's store: one SQLite file in WAL mode (beside the run history: reports/contest-<id>.sqlite),
holding accounts, sessions, submissions with their sources as blobs, judgements, clarifications and
the event feed. A submission is committed before its HTTP answer; a judgement is written with its
submission's new state in one transaction, so a `kill -9` at any moment leaves every submission either
judged once or still queued (docs/serve.md). The file, its log and its index are their owner's alone
(`private`), and a number a client writes is read by `ident` alone. Each contest file has a store of
its own (`contest_store`: it says whose it is).

Writes go through one connection, guarded by a lock (the grading thread and the web handlers take
turns); reads go through a connection per thread, so a reader never waits for a writer's commit
(WAL: readers see the last commit, and a commit's fsync holds no reader back).

A disk that fills while the server runs (breaker 50c: every login and submission was a 500 with a
traceback, and the grader graded one submission again and again) is DiskFull: a session or a
submission is refused under the floor the command line refuses before grading (MIN_FREE_BYTES,
`room`), and SQLite's own 'database or disk is full' is the same exception, which the app answers 503.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS teams (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS accounts (username TEXT PRIMARY KEY, team_id INTEGER REFERENCES teams(id),
    role TEXT NOT NULL CHECK (role IN ('team', 'coach')), hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (token TEXT PRIMARY KEY, username TEXT NOT NULL REFERENCES accounts(username),
    csrf TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS submissions (id INTEGER PRIMARY KEY AUTOINCREMENT, team_id INTEGER NOT NULL,
    problem TEXT NOT NULL, language TEXT NOT NULL, filename TEXT NOT NULL, source BLOB NOT NULL,
    zipped INTEGER NOT NULL, time REAL NOT NULL, contest_ms INTEGER NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('queued', 'judged')));
CREATE INDEX IF NOT EXISTS submissions_state ON submissions(state, id);
CREATE TABLE IF NOT EXISTS judgements (id INTEGER PRIMARY KEY AUTOINCREMENT, submission_id INTEGER NOT NULL,
    started REAL NOT NULL, ended REAL NOT NULL, verdict TEXT NOT NULL, score REAL, max_cpu_ms REAL NOT NULL,
    message TEXT NOT NULL, tests TEXT NOT NULL, valid INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS judgements_submission ON judgements(submission_id);
CREATE TABLE IF NOT EXISTS clarifications (id INTEGER PRIMARY KEY AUTOINCREMENT, from_team INTEGER,
    to_team INTEGER, reply_to INTEGER, problem TEXT, text TEXT NOT NULL, time REAL NOT NULL,
    contest_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT NOT NULL, obj_id TEXT,
    data TEXT, team_id INTEGER, coach_only INTEGER NOT NULL DEFAULT 0, time REAL NOT NULL);
"""

# a disk with less room than this takes no new session or submission: the command line's floor
# (commands/common.MIN_FREE_BYTES, a floor above: the server refuses to start under it)
MIN_FREE_BYTES = 4 << 20


class DiskFull(sqlite3.OperationalError):
    """The store's disk is full, or under MIN_FREE_BYTES: what would make the store grow is refused,
    in words for whoever asked."""

    def __init__(self, free: int | None = None):
        super().__init__("the server's disk is full: nothing was stored; try again later, and tell the judges")
        self.free = free  # bytes (None: SQLite said it)

    @property
    def why(self) -> str:
        """Why, for the server's log."""
        if self.free is None:
            return "SQLite: database or disk is full"
        return f"{self.free // 1024} KiB free, under {MIN_FREE_BYTES >> 20} MiB"


def full(err: BaseException) -> bool:
    """Whether an SQLite error says that its disk is full (SQLITE_FULL)."""
    return isinstance(err, sqlite3.OperationalError) and (
        getattr(err, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "disk is full" in str(err))


class Store:
    def __init__(self, path: Path):
        self.path = Path(path)
        private(self.path)
        self._db = self._connect()
        self._lock = threading.RLock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)
        self._local = threading.local()
        self._readers: list[tuple[threading.Thread, sqlite3.Connection]] = []

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA foreign_keys=ON")
        return db

    def _reader(self) -> sqlite3.Connection:
        """This thread's read connection, made on first use and closed with the store, or once its thread
        has ended: a server's worker threads come and go (anyio ends one idle for 10 s), and each kept
        its connection, two descriptors, for the whole contest."""
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = self._connect()
            db.execute("PRAGMA query_only=ON")
            with self._lock:
                for _, ended in [pair for pair in self._readers if not pair[0].is_alive()]:
                    ended.close()
                self._readers = [pair for pair in self._readers if pair[0].is_alive()]
                self._readers.append((threading.current_thread(), db))
        return db

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            for _, db in self._readers:
                db.close()
            self._readers.clear()
            self._db.close()

    @contextmanager
    def write(self):
        """One transaction (BEGIN IMMEDIATE ... COMMIT), rolled back on any failure (a COMMIT that
        failed too: its transaction was left open, and every later BEGIN failed); a full disk's
        failure is DiskFull."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    self._db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")
                    raise
            except sqlite3.OperationalError as err:
                if full(err) and not isinstance(err, DiskFull):
                    raise DiskFull() from err
                raise

    def room(self) -> None:
        """Raise DiskFull where the store's disk has less than MIN_FREE_BYTES free (this user's room)."""
        try:
            found = os.statvfs(self.path.parent)
        except OSError:
            return
        free = found.f_bavail * found.f_frsize
        if free < MIN_FREE_BYTES:
            raise DiskFull(free)

    def rows(self, sql: str, *args) -> list[sqlite3.Row]:
        return self._reader().execute(sql, args).fetchall()

    def row(self, sql: str, *args) -> sqlite3.Row | None:
        return self._reader().execute(sql, args).fetchone()

    # the contest's settings kept across restarts
    def meta(self, key: str, default: str | None = None) -> str | None:
        found = self.row("SELECT value FROM meta WHERE key = ?", key)
        return found["value"] if found else default

    def set_meta(self, key: str, value: str) -> None:
        with self.write() as db:
            db.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                       (key, value))

    # accounts
    def team_id(self, db, name: str) -> int:
        """The team of this name, made if new: its event in the same transaction, so a team added while
        the server runs (`judge accounts`, another process) is announced when it is made, before
        anything it does (breaker 47c: its event came at the next poll of a feed, after its submissions
        and, at the finalize, after the end of updates)."""
        name = tamed(name)
        found = db.execute("SELECT id FROM teams WHERE name = ?", (name,)).fetchone()
        if found:
            return found["id"]
        number = db.execute("INSERT INTO teams (name) VALUES (?)", (name,)).lastrowid
        if db.execute("SELECT 1 FROM events WHERE type = 'contest' LIMIT 1").fetchone():  # (before: the feed's
            add_event(db, "teams", str(number), team_json({"id": number, "name": name}))  # first announce, after contest)
        return number

    @staticmethod
    def stored_name(name: str) -> str:
        """A team's name as the store keeps it (tamed)."""
        return tamed(name)

    def has_team(self, name: str) -> bool:
        """Whether a team of this name is stored (as team_id would store it)."""
        return self.row("SELECT 1 FROM teams WHERE name = ?", tamed(name)) is not None

    @staticmethod
    def has_team_in(db, name: str) -> bool:
        """has_team within a transaction of the caller's (write())."""
        return db.execute("SELECT 1 FROM teams WHERE name = ?", (tamed(name),)).fetchone() is not None

    @staticmethod
    def meta_in(db, key: str) -> str | None:
        """meta within a transaction of the caller's (write())."""
        found = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return found[0] if found else None

    @staticmethod
    def accounts_in(db) -> dict[str, str]:
        """Within a transaction of the caller's: each account's username -> its team's name ('' for the coach)."""
        return dict(db.execute("SELECT a.username, COALESCE(t.name, '') FROM accounts a "
                               "LEFT JOIN teams t ON t.id = a.team_id").fetchall())

    def put_account(self, username: str, team: str | None, role: str, password_hash: str) -> None:
        """Make or replace an account (a new password revokes its sessions)."""
        with self.write() as db:
            self.put_account_in(db, username, self.team_id(db, team) if team is not None else None, role, password_hash)

    @staticmethod
    def put_account_in(db, username: str, team_id: int | None, role: str, password_hash: str) -> None:
        """put_account within a transaction of the caller's (write())."""
        db.execute("DELETE FROM sessions WHERE username = ?", (username,))
        db.execute("INSERT INTO accounts (username, team_id, role, hash) VALUES (?, ?, ?, ?) ON CONFLICT(username) "
                   "DO UPDATE SET team_id = excluded.team_id, role = excluded.role, hash = excluded.hash",
                   (username, team_id, role, password_hash))

    @staticmethod
    def remove_accounts_in(db, team_id: int, keep: str) -> None:
        """Within a transaction of the caller's: the team's accounts but `keep` removed, their sessions ended."""
        for (old,) in db.execute("SELECT username FROM accounts WHERE team_id = ? AND username != ?",
                                 (team_id, keep)).fetchall():
            db.execute("DELETE FROM sessions WHERE username = ?", (old,))
            db.execute("DELETE FROM accounts WHERE username = ?", (old,))

    def account(self, username: str) -> sqlite3.Row | None:
        return self.row("SELECT * FROM accounts WHERE username = ?", username)

    # submissions
    def add_submission(self, team_id: int, problem: str, language: str, filename: str, source: bytes, zipped: bool,
                       contest_ms: int, bounded=None) -> int:
        """A team's submission, queued; `bounded(waiting, last_minute)`, given the team's submissions that
        wait for their first judgement and those of the last minute (counted and added in one transaction:
        a burst sent at once is counted too), raises to refuse it."""
        with self.write() as db:
            if bounded is not None:
                bounded(*db.execute(
                    "SELECT COALESCE(SUM(state = 'queued' AND NOT EXISTS (SELECT 1 FROM judgements j WHERE "
                    "j.submission_id = s.id)), 0), COALESCE(SUM(time > ?), 0) FROM submissions s WHERE team_id = ?",
                    (time.time() - 60, team_id)).fetchone())
            number = db.execute("INSERT INTO submissions (team_id, problem, language, filename, source, zipped, time, "
                                "contest_ms, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued')",
                                (team_id, problem, language, filename, source, int(zipped), time.time(),
                                 contest_ms)).lastrowid
            add_event(db, "submissions", str(number), submission_json(db.execute(
                "SELECT * FROM submissions WHERE id = ?", (number,)).fetchone()), team_id=team_id)
        return number

    def queued(self) -> list[sqlite3.Row]:
        """The submissions to grade, oldest first; `judged_before`: a rejudge's (it has a judgement)."""
        return self.rows("SELECT s.id, s.team_id, EXISTS (SELECT 1 FROM judgements j WHERE j.submission_id = s.id) "
                         "AS judged_before FROM submissions s WHERE s.state = 'queued' ORDER BY s.id")

    def submission(self, number: int) -> sqlite3.Row | None:
        return self.row("SELECT * FROM submissions WHERE id = ?", number)

    def record_judgement(self, number: int, started: float, verdict: str, score: float | None, max_cpu_ms: float,
                         message: str, tests: list[dict]) -> int | None:
        """The judgement of a queued submission, and the submission judged, in one transaction; None
        (nothing written) when it is no longer queued."""
        with self.write() as db:
            found = db.execute("SELECT * FROM submissions WHERE id = ? AND state = 'queued'", (number,)).fetchone()
            if found is None:
                return None
            db.execute("UPDATE judgements SET valid = 0 WHERE submission_id = ?", (number,))
            judgement = db.execute(
                "INSERT INTO judgements (submission_id, started, ended, verdict, score, max_cpu_ms, message, tests, valid) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)",
                (number, started, time.time(), verdict, score, max_cpu_ms, message, json.dumps(tests))).lastrowid
            db.execute("UPDATE submissions SET state = 'judged' WHERE id = ?", (number,))
            row = db.execute("SELECT * FROM judgements WHERE id = ?", (judgement,)).fetchone()
            add_event(db, "judgements", str(judgement), judgement_json(row, found), team_id=found["team_id"])
            for ordinal, test in enumerate(tests, 1):
                if test.get("verdict"):
                    add_event(db, "runs", f"{judgement}-{ordinal}", run_json(row, ordinal, test, found),
                              team_id=found["team_id"])
        return judgement

    def requeue(self, where: str, *args) -> int:
        """Rejudge: the chosen judged submissions go back to the queue (their judgement stays valid
        until the new one is written)."""
        with self.write() as db:
            return db.execute(f"UPDATE submissions SET state = 'queued' WHERE state = 'judged' AND {where}",
                              args).rowcount

    def judgement(self, number: int) -> sqlite3.Row | None:
        return self.row("SELECT * FROM judgements WHERE submission_id = ? AND valid = 1 ORDER BY id DESC LIMIT 1",
                        number)

    # clarifications
    def add_clarification(self, from_team: int | None, to_team: int | None, reply_to: int | None, problem: str | None,
                          text: str, contest_ms: int, waiting: int | None = None) -> int | None:
        """A clarification; a team's question only while fewer than `waiting` of its questions wait for
        an answer (counted and added in one transaction: a burst sent at once is counted too), else None."""
        text = tamed(text)
        with self.write() as db:
            if waiting is not None and db.execute(
                    "SELECT COUNT(*) FROM clarifications q WHERE q.from_team = ? AND NOT EXISTS "
                    "(SELECT 1 FROM clarifications a WHERE a.reply_to = q.id)", (from_team,)).fetchone()[0] >= waiting:
                return None
            number = db.execute("INSERT INTO clarifications (from_team, to_team, reply_to, problem, text, time, contest_ms) "
                                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                                (from_team, to_team, reply_to, problem, text, time.time(), contest_ms)).lastrowid
            row = db.execute("SELECT * FROM clarifications WHERE id = ?", (number,)).fetchone()
            data = clarification_json(row)
            if from_team is not None:  # a question: its team and the coaches
                add_event(db, "clarifications", str(number), data, team_id=from_team)
            elif to_team is not None:  # an answer to one team
                add_event(db, "clarifications", str(number), data, team_id=to_team)
            else:  # a broadcast
                add_event(db, "clarifications", str(number), data)
        return number


CONTEST_FILE = "contest_file"  # the meta key of the contest file (its resolved path) a store is for


def contest_store(path: Path, contest_file: Path, given: bool = False) -> Store:
    """The store of a contest file, opened: `path` (--store, if `given`; else reports/contest-<id>.sqlite),
    unless that one is another contest file's (two files named contest.yaml in week1/ and week2/ have one
    id: the second opened with the first one's start, teams and submissions, issue 47); then one named
    by this file's resolved path too, contest-<id>-<8 hex digits>.sqlite, said once as it is made. A
    store from before stores said whose they are is the first contest file's to open it."""
    resolved = str(Path(contest_file).resolve())
    if not given:
        own = path.with_name(f"{path.stem}-{hashlib.sha256(resolved.encode()).hexdigest()[:8]}{path.suffix}")
        other = _owner(path)
        if own.exists() or other not in (None, resolved):
            if not own.exists():
                print(f"judge: note: {path} is the store of another contest file ({other}); this one's is {own}",
                      file=sys.stderr)
            path = own
    store = Store(path)
    if store.meta(CONTEST_FILE) is None:
        store.set_meta(CONTEST_FILE, resolved)
    return store


def _owner(path: Path) -> str | None:
    """The contest file a store is for (None: no store there, or one from before stores said it)."""
    if not path.exists():
        return None
    try:
        with sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True) as db:
            found = db.execute("SELECT value FROM meta WHERE key = ?", (CONTEST_FILE,)).fetchone()
    except sqlite3.Error:  # (not a store, or no meta yet: Store says what it cannot open)
        return None
    return found[0] if found else None


def private(path: Path) -> None:
    """An SQLite file, its write-ahead log and its index readable by their owner alone (issue 47: the
    store, with every source and password hash, and the run history were 644 on a shared machine):
    made 600 before SQLite first opens the file, as SQLite makes the log and the index with the
    file's own mode, and made 600 where an older one was not. One that cannot be (another's file, a
    read-only folder) is left for SQLite to say what it cannot do."""
    path.parent.mkdir(parents=True, exist_ok=True)
    for each in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            if each == path and not path.exists():
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            elif each.exists() and stat.S_IMODE(each.stat().st_mode) != 0o600:
                each.chmod(0o600)
        except OSError:
            pass


def add_event(db, kind: str, obj_id: str | None, data, team_id: int | None = None, coach_only: bool = False) -> None:
    """An event of the feed, visible to everyone logged in, to one team (and the coaches), or to the coaches."""
    db.execute("INSERT INTO events (type, obj_id, data, team_id, coach_only, time) VALUES (?, ?, ?, ?, ?, ?)",
               (kind, obj_id, None if data is None else json.dumps(data), team_id, int(coach_only), time.time()))


MARKS = 4  # combining marks kept in a row (a letter with two accents has two; Zalgo text, hundreds)


def tamed(text: str) -> str:
    """A team's text (a name, a clarification) as it is stored: a run of combining marks cut to MARKS
    (breaker 50c: one letter with 1500 marks made the coach's clarifications page 10,071 px wide, and a
    name's 200 widened the scoreboard's team column past every problem: a grapheme cluster never wraps)."""
    import unicodedata

    kept, run = [], 0
    for character in text:
        run = run + 1 if unicodedata.category(character)[0] == "M" else 0
        if run <= MARKS:
            kept.append(character)
    return "".join(kept)


def ident(text: str) -> int | None:
    """A number as a client wrote it (an id, a token): ASCII digits within SQLite's 64-bit integers,
    else None (int() takes other scripts' digits, and a number SQLite cannot hold is an OverflowError)."""
    if not (text.isascii() and text.isdigit()) or len(text) > 19:
        return None
    number = int(text)
    return number if number < 2 ** 63 else None


def iso(when: float) -> str:
    from datetime import datetime, timezone

    return datetime.fromtimestamp(when, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def reltime(ms: int) -> str:
    sign = "-" if ms < 0 else ""
    ms = abs(ms)
    return f"{sign}{ms // 3600000}:{ms % 3600000 // 60000:02}:{ms % 60000 // 1000:02}.{ms % 1000:03}"


def team_json(row) -> dict:
    """A team: its label is its id ("Usable as a label", the spec says of a team's id; label is required)."""
    return {"id": str(row["id"]), "name": row["name"], "label": str(row["id"]), "display_name": row["name"]}


def submission_json(row) -> dict:
    """A submission; entry_point null: the judge finds a program's entry itself (no language asks for one)."""
    return {"id": str(row["id"]), "language_id": row["language"], "problem_id": row["problem"],
            "team_id": str(row["team_id"]), "time": iso(row["time"]), "contest_time": reltime(row["contest_ms"]),
            "entry_point": None, "files": [{"href": f"contests/{{cid}}/submissions/{row['id']}/files", "mime": "application/zip"}]}


# CLICS judgement type id -> (name, penalty, solved); our verdicts map to them by CLICS_ID
JUDGEMENT_TYPES = {"AC": ("correct", False, True), "WA": ("wrong answer", True, False),
                   "TLE": ("time limit exceeded", True, False), "RTE": ("run-time error", True, False),
                   "MLE": ("memory limit exceeded", True, False), "CE": ("compiler error", False, False),
                   "JE": ("judging error", False, False)}
CLICS_ID = {"RE": "RTE", "IE": "JE"}  # CE and IE cost no penalty (docs/serve.md)


def clics_id(verdict: str) -> str:
    return CLICS_ID.get(verdict, verdict)


def contest_ms_at(when: float, submission) -> int:
    """The contest time of a moment, from its submission's (its time and contest time): a judgement
    and its runs come after it."""
    return submission["contest_ms"] + round((when - submission["time"]) * 1000)


def judgement_json(row, submission) -> dict:
    """A judgement (written once, complete); its contest times are its own, not its submission's. No
    `valid`: the 2023-06 spec has none, and a rejudge, which made an old one invalid, sent no event
    for it; a rejudge adds a judgement, and a submission's latest judgement is the one that counts."""
    return {"id": str(row["id"]), "submission_id": str(row["submission_id"]),
            "judgement_type_id": clics_id(row["verdict"]), "start_time": iso(row["started"]),
            "start_contest_time": reltime(contest_ms_at(row["started"], submission)), "end_time": iso(row["ended"]),
            "end_contest_time": reltime(contest_ms_at(row["ended"], submission)),
            "max_run_time": round(row["max_cpu_ms"] / 1000, 3)} | ({"score": row["score"]} if row["score"] is not None else {})


def run_json(judgement, ordinal: int, test: dict, submission) -> dict:
    """A test's run: its time is when it ended (one graded before that was known: its judgement's end)."""
    ended = test.get("ended", judgement["ended"])
    return {"id": f"{judgement['id']}-{ordinal}", "judgement_id": str(judgement["id"]), "ordinal": ordinal,
            "judgement_type_id": clics_id(test["verdict"]), "time": iso(ended),
            "contest_time": reltime(contest_ms_at(ended, submission)), "run_time": round(test.get("cpu_ms", 0) / 1000, 3)}


def clarification_json(row) -> dict:
    return {"id": str(row["id"]), "from_team_id": None if row["from_team"] is None else str(row["from_team"]),
            "to_team_id": None if row["to_team"] is None else str(row["to_team"]),
            "reply_to_id": None if row["reply_to"] is None else str(row["reply_to"]),
            "problem_id": row["problem"], "text": row["text"], "time": iso(row["time"]),
            "contest_time": reltime(row["contest_ms"])}
