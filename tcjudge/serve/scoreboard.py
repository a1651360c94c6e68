"""The contest's clock and its scoreboard.

icpc: problems solved, then penalty (minutes from the start to each first AC, plus the contest's
`penalty` (20) per rejected submission before it; CE and IE cost nothing); ioi: the sum of each
problem's best score. During the freeze (its last N minutes, or when a coach freezes it) contestants
see the submissions made since as pending; a coach sees everything, and can unfreeze. First to solve
is marked per problem, among what the viewer may see.
"""

from __future__ import annotations

import time
from datetime import datetime, timezone

from .store import JUDGEMENT_TYPES, clics_id


class Clock:
    """The contest's times: its start (a `start: now` contest's is fixed when first served, and kept),
    end and freeze, and whether a coach froze, unfroze or finalized it."""

    def __init__(self, contest, store):
        self.contest, self.store = contest, store
        if contest.start is not None:
            self.start = contest.start.timestamp()
        else:
            kept = store.meta("start")
            if kept is None:
                kept = repr(time.time())
                store.set_meta("start", kept)
            self.start = float(kept)
        self.end = self.start + contest.duration.total_seconds()
        self.freeze_at = self.end - contest.freeze.total_seconds()

    def now_ms(self) -> int:
        return int((time.time() - self.start) * 1000)

    @property
    def running(self) -> bool:
        """Taking submissions: started, not ended (nor finalized, which only an ended contest is)."""
        return self.start <= time.time() < self.end and not self.finalized

    @property
    def started(self) -> bool:
        return time.time() >= self.start

    @property
    def ended(self) -> bool:
        return time.time() >= self.end

    @property
    def finalized(self) -> bool:
        return self.store.meta("finalized") is not None

    @property
    def freeze_mode(self) -> str:
        return self.store.meta("freeze", "auto")  # auto (the contest file's), frozen, thawed

    def frozen_since_ms(self) -> int | None:
        """Contest time from which contestants see results as pending, or None."""
        mode = self.freeze_mode
        if mode == "thawed" or self.store.meta("finalized"):
            return None
        if mode == "frozen":  # a coach's freeze: from when it was asked (or the contest's, if earlier)
            since = float(self.store.meta("frozen_at") or time.time())
            if self.contest.freeze.total_seconds():
                since = min(since, self.freeze_at)
            return int((since - self.start) * 1000)
        if self.contest.freeze.total_seconds() and time.time() >= self.freeze_at:
            return int((self.freeze_at - self.start) * 1000)
        return None

    def state(self) -> dict:
        """The CLICS state object. Its times only move forward, in the spec's order: frozen is when the
        scoreboard froze (it stays once thawed or finalized), thawed is set only after a freeze (a
        finalize thaws: the final results show everything)."""
        from .store import iso

        now = time.time()
        mode, finalized = self.freeze_mode, self._meta_time("finalized")
        thawed_at = self._meta_time("thawed_at") if mode == "thawed" else None
        coach = self._meta_time("frozen_at") if mode != "auto" else None
        contest = self.freeze_at if self.contest.freeze.total_seconds() else None
        until = min(t for t in (now, thawed_at, finalized) if t is not None)  # a freeze after these never was
        frozen = min((t for t in (coach, contest) if t is not None and t <= until), default=None)
        thawed = (thawed_at or finalized) if frozen is not None else None
        return {"started": iso(self.start) if now >= self.start else None,
                "frozen": None if frozen is None else iso(frozen),
                "ended": iso(self.end) if now >= self.end else None,
                "thawed": None if thawed is None else iso(thawed),
                "finalized": None if finalized is None else iso(finalized),
                "end_of_updates": None if finalized is None else iso(finalized)}

    def shown(self) -> dict:
        """The clock as every page's header shows it: its moments (epoch milliseconds: the start, the
        end, the contestants' freeze or None; the server's now, which the page's script counts from)
        and its words now, which the script keeps counting (static/judge.js, clockText)."""
        frozen = self.frozen_since_ms()
        view = {"start": round(self.start * 1000), "end": round(self.end * 1000), "now": round(time.time() * 1000),
                "frozen": None if frozen is None else round(self.start * 1000) + frozen, "final": self.finalized}
        return view | {"text": clock_text(view, view["now"])}

    def _meta_time(self, key: str) -> float | None:
        """A moment the store keeps (a coach's freeze, thaw, finalize), read once."""
        kept = self.store.meta(key)
        return float(kept) if kept else None


def clock_text(view: dict, now: int) -> str:
    """A shown clock's words at `now` (epoch ms): time to the start, time left, over, or final."""
    if view["final"]:
        return "final results"
    if now < view["start"]:
        return f"starts in {_span(view['start'] - now)}"
    if now >= view["end"]:
        return "contest over"
    return f"{_span(view['end'] - now)} left"


def _span(ms: int) -> str:
    seconds = max(0, -(-ms // 1000))  # (rounded up: "0:00:01 left" until the end)
    return f"{seconds // 3600}:{seconds % 3600 // 60:02}:{seconds % 60:02}"


def standings(store, contest, clock, problems: list[str], coach: bool) -> dict:
    """The scoreboard as the viewer may see it: rows of teams with a cell per problem."""
    frozen_ms = None if coach else clock.frozen_since_ms()
    teams = {row["id"]: row["name"] for row in store.rows(
        "SELECT t.id, t.name FROM teams t WHERE EXISTS (SELECT 1 FROM accounts a WHERE a.team_id = t.id)")}
    submissions = store.rows(
        "SELECT s.id, s.team_id, s.problem, s.contest_ms, s.state, j.verdict, j.score FROM submissions s "
        "LEFT JOIN judgements j ON j.submission_id = s.id AND j.valid = 1 WHERE s.contest_ms >= 0 AND s.contest_ms < ? "
        "ORDER BY s.contest_ms, s.id", int(contest.duration.total_seconds() * 1000))
    cells = {(team, problem): {"tries": 0, "pending": 0, "solved_ms": None, "penalty": 0, "score": None, "score_ms": None,
                               "first": False}
             for team in teams for problem in problems}
    first: dict[str, tuple[int, int]] = {}
    for row in submissions:
        cell = cells.get((row["team_id"], row["problem"]))
        if cell is None:
            continue
        hidden = frozen_ms is not None and row["contest_ms"] >= frozen_ms
        if row["verdict"] is None or hidden:  # not judged yet, or frozen for this viewer
            if cell["solved_ms"] is None:
                cell["pending"] += 1
            continue
        verdict = clics_id(row["verdict"])
        if contest.scoring == "ioi":
            cell["tries"] += 1
            if row["score"] is not None and (cell["score"] is None or row["score"] > cell["score"]):
                cell["score"], cell["score_ms"] = row["score"], row["contest_ms"]
            solved = verdict == "AC"
        else:
            if cell["solved_ms"] is not None:
                continue
            solved = JUDGEMENT_TYPES.get(verdict, ("", False, False))[2]
            if not solved and JUDGEMENT_TYPES.get(verdict, ("", True, False))[1]:
                cell["tries"] += 1
        if solved and cell["solved_ms"] is None:
            cell["solved_ms"] = row["contest_ms"]
            cell["penalty"] = row["contest_ms"] // 60000 + contest.penalty * cell["tries"]
            if contest.scoring != "ioi":
                cell["tries"] += 1
            if row["problem"] not in first or (row["contest_ms"], row["id"]) < first[row["problem"]][:2]:
                first[row["problem"]] = (row["contest_ms"], row["id"], row["team_id"])
    for problem, (_, _, team) in first.items():
        cells[team, problem]["first"] = True
    rows = []
    for team, name in teams.items():
        mine = [cells[team, problem] for problem in problems]
        solved = sum(cell["solved_ms"] is not None for cell in mine)
        penalty = sum(cell["penalty"] for cell in mine if cell["solved_ms"] is not None)
        score = round(sum(cell["score"] or 0 for cell in mine), 3)
        last = max((cell["solved_ms"] for cell in mine if cell["solved_ms"] is not None), default=0)
        rows.append({"team_id": team, "name": name, "solved": solved, "penalty": penalty, "score": score,
                     "last": last, "cells": mine})
    _rank(rows, contest.scoring)
    return {"rows": rows, "problems": problems, "frozen": frozen_ms is not None, "scoring": contest.scoring,
            "time": datetime.now(timezone.utc)}


def _rank(rows: list[dict], scoring: str) -> None:
    """Sorts the rows and ranks them: teams tied on what ranks them (icpc: solved, penalty, the time of
    the last first AC; ioi: score) share a rank, listed by name, and the next rank counts them (1, 1, 3),
    as the CLICS spec, ICPC and DOMjudge rank them (issue 47: a tie was ranked by the teams' names)."""
    def tied(row):
        return (-row["score"],) if scoring == "ioi" else (-row["solved"], row["penalty"], row["last"])

    rows.sort(key=lambda row: (tied(row), row["name"]))
    for place, row in enumerate(rows, 1):
        row["rank"] = rows[place - 2]["rank"] if place > 1 and tied(rows[place - 2]) == tied(row) else place
