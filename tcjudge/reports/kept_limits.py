"""The time limits computed for packages that give none, kept in the run history's file (issue 48).

A computed limit depends on the package (its data, its submissions: the problem hash covers the
whole folder), on the engine that timed it, and on the machines that graded the submissions timed
(the host and each one's compiler, as a result's reuse does). While none of them changes, every
command (check, report, grade, serve) takes the kept limit instead of timing the submissions again;
the warnings that the timing gave are kept with it and said again.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time

from ..record import record

SCHEMA = """
CREATE TABLE IF NOT EXISTS time_limits (
    problem TEXT NOT NULL, problem_hash TEXT NOT NULL, basis TEXT NOT NULL, engine TEXT NOT NULL,
    time_limit REAL NOT NULL, explained TEXT NOT NULL, warnings TEXT NOT NULL, computed REAL NOT NULL,
    PRIMARY KEY (problem_hash, basis, engine)
);
"""


@record(frozen=True)
class KeptLimit:
    time_limit: float
    explained: str  # where it came from, as Problem.time_limit_from says it
    warnings: tuple[str, ...]  # what the timing warned of, said again each time the limit is used
    computed: float  # when (time.time())


def basis(machines: list[str]) -> str:
    """The machines (verdict_machine strings) of the submissions a limit was computed from, as one key."""
    return hashlib.sha256("\n".join(sorted(set(machines))).encode()).hexdigest()[:16]


class KeptLimits:
    """The time_limits table of an opened history (its SQLite connection)."""

    def __init__(self, db: sqlite3.Connection, read_only: bool = False):
        self.db = db
        if not read_only:
            db.executescript(SCHEMA)

    def find(self, problem_hash: str, machines: str, engine: str) -> KeptLimit | None:
        try:
            row = self.db.execute(
                "SELECT time_limit, explained, warnings, computed FROM time_limits "
                "WHERE problem_hash = ? AND basis = ? AND engine = ?", (problem_hash, machines, engine)).fetchone()
        except sqlite3.OperationalError:  # a history written before limits were kept: none is
            return None
        if row is None:
            return None
        limit, explained, warnings, computed = row
        return KeptLimit(limit, explained, tuple(filter(None, warnings.split("\n"))), computed)

    def keep(self, problem: str, problem_hash: str, machines: str, engine: str, time_limit: float,
             explained: str, warnings: list[str]) -> None:
        try:
            with self.db:
                self.db.execute("INSERT OR REPLACE INTO time_limits VALUES (?,?,?,?,?,?,?,?)",
                                (problem, problem_hash, machines, engine, time_limit, explained,
                                 "\n".join(w.replace("\n", " ") for w in warnings), time.time()))
        except sqlite3.OperationalError:  # (a full disk: the limit is computed again next time, nothing lost)
            pass
