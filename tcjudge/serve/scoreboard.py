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
        self.actions = 0  # the coach's freezes, unfreezes and finalizes kept (Clock.moved)

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

    FREEZE_KEYS = ("freeze", "frozen_at", "thawed_at", "finalized")

    def freeze(self) -> None:
        """A coach's freeze: from now (breaker 47c: it was backdated to the contest file's freeze time,
        and took back from the teams a solve they had been shown after an unfreeze)."""
        self._keep(frozen_at=repr(time.time()), freeze="frozen")

    def unfreeze(self) -> None:
        """Ends the freeze in force, and that one alone: the contest file's freeze, if it is still to
        come, starts at its time (breaker 47c: an unfreeze before it cancelled it). frozen_at becomes
        the start of the freeze ended, which the state's `frozen` says."""
        self._keep(frozen_at=repr(self._freeze()[0]), thawed_at=repr(time.time()), freeze="thawed")

    def finalize(self) -> None:
        self._keep(finalized=repr(time.time()))

    def frozen_since_ms(self) -> int | None:
        """Contest time from which contestants see results as pending, or None."""
        span = self._freeze()
        return None if span is None or span[1] is not None else int((span[0] - self.start) * 1000)

    def _freeze(self) -> tuple[float, float | None] | None:
        """The freeze in force, (its start, None), else the last that ended, (its start, its end), in
        epoch seconds; None before any. The store keeps the coach's last action (`freeze`: frozen or
        thawed, at frozen_at or thawed_at; none: auto, the contest file's alone): a coach's freeze
        lasts until an unfreeze; an unfreeze ends the freeze in force and leaves the contest file's,
        if it starts later; a finalize ends any."""
        now = time.time()
        kept = {row["key"]: row["value"] for row in self.store.rows(
            f"SELECT key, value FROM meta WHERE key IN ({', '.join('?' * len(self.FREEZE_KEYS))})", *self.FREEZE_KEYS)}
        mode = kept.get("freeze", "auto")
        frozen_at, thawed_at, finalized = (float(kept[key]) if kept.get(key) else None
                                           for key in ("frozen_at", "thawed_at", "finalized"))
        scheduled = self.freeze_at if self.contest.freeze.total_seconds() else None
        due = scheduled is not None and scheduled <= now
        if mode == "frozen":
            span = (frozen_at or now, None)
        elif mode == "thawed" and not (due and scheduled > (thawed_at or now)):
            start = frozen_at or scheduled  # (a store from before frozen_at was the freeze thawed: the file's)
            span = None if start is None else (start, thawed_at)
        else:  # the contest file's, if due
            span = (scheduled, None) if due else None
        if span is None:
            return None
        start = min(span[0], self.end)  # (a contest file whose times moved back between runs: no freeze after its end)
        return (start, span[1]) if span[1] is not None or finalized is None else (start, finalized)

    def state(self) -> dict:
        """The CLICS state object: frozen and thawed say the freeze in force (thawed null), else the last
        that ended (a finalize thaws: the final results show everything)."""
        from .store import iso

        now = time.time()
        finalized = self._meta_time("finalized")
        frozen, thawed = self._freeze() or (None, None)
        return {"started": iso(self.start) if now >= self.start else None,
                "frozen": None if frozen is None else iso(frozen),
                "ended": iso(self.end) if now >= self.end else None,
                "thawed": None if thawed is None else iso(thawed),
                "finalized": None if finalized is None else iso(finalized),
                "end_of_updates": None if finalized is None else iso(finalized)}

    def _keep(self, **values: str) -> None:
        """Keeps the clock's moments in one transaction (a reader sees all of them or none)."""
        with self.store.write() as db:
            for key, value in values.items():
                db.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = "
                           "excluded.value", (key, value))
        self.actions += 1

    def moved(self) -> tuple:
        """What the freeze's state (`shown()["freeze"]`) changes with, known without reading the store:
        the coach's actions and the contest file's freeze time passing. A page's stream reads the state
        again only when this moves."""
        return self.actions, time.time() >= self.freeze_at

    def shown(self) -> dict:
        """The clock as every page's header shows it: its moments (epoch milliseconds: the start, the
        end, the contestants' freeze or None, the contest file's freeze while it is still to come and
        would start at its time, else None; the server's now, which the page's script counts from), and
        its words now, which the script keeps counting and switches to frozen at `next_freeze`
        (static/judge.js, clockText; issue 47 F12: a page open across the freeze never said it). Its
        `freeze`, "frozen-next_freeze-final" ("" for None, 1 for final), is what a page's stream says
        when it changes (a coach's freeze, unfreeze or finalize; the file's freeze time)."""
        now = time.time()
        frozen, final = self.frozen_since_ms(), self.finalized
        upcoming = frozen is None and not final and self.contest.freeze.total_seconds() and now < self.freeze_at
        view = {"start": round(self.start * 1000), "end": round(self.end * 1000), "now": round(now * 1000),
                "frozen": None if frozen is None else round(self.start * 1000) + frozen,
                "next_freeze": round(self.freeze_at * 1000) if upcoming else None, "final": final}
        said = "-".join("" if value is None else str(value) for value in (view["frozen"], view["next_freeze"]))
        return view | {"text": clock_text(view, view["now"]), "freeze": f"{said}-{int(final)}"}

    def _meta_time(self, key: str) -> float | None:
        """A moment the store keeps (the finalize), read once."""
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
        # the minute of its last first AC, as the pages show it and penalties count (breaker 55b: compared in
        # ms, two teams shown tied, 2 solved at 0', were ranked 3 and 4 by 1.5 s, and one lost its medal)
        last = max((cell["solved_ms"] // 60000 for cell in mine if cell["solved_ms"] is not None), default=0)
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
