"""What a caller sees, made once for the pages and their live streams (pages.py, coach.py): a
submission as its team or the coach may see it, the caller's own rows, a submission's source as
text, the coach's actions that apply now. The caller may see what it is given here: every query is
filtered by its team before (docs/serve.md lists what each role sees).
"""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException

from .auth import Caller
from .state import Serve
from .store import ident


def submission_view(serve: Serve, row, caller: Caller, judgement=False) -> dict:
    """What the caller may see of a submission (the caller may see it: checked before); `judgement`:
    its valid judgement when the caller read it already (None: it has none)."""
    if judgement is False:
        judgement = serve.store.judgement(row["id"])
    live = serve.grader.live.get(row["id"])
    view = {"id": row["id"], "problem": row["problem"], "language": row["language"], "filename": row["filename"],
            "minute": row["contest_ms"] // 60000, "team_id": row["team_id"], "queued": row["state"] == "queued",
            "verdict": judgement["verdict"] if judgement else None,
            "score": judgement["score"] if judgement else None,
            "done": live["done"] if live else None, "total": live["total"] if live else None,
            "cpu_ms": round(live["cpu_ms"] if live else judgement["max_cpu_ms"] if judgement else 0),
            "memory_mib": round(live["memory_mib"], 1) if live else None}
    if judgement:
        tests = json.loads(judgement["tests"])
        view["memory_mib"] = round(max((t["memory_mib"] for t in tests if t["verdict"]), default=0), 1)
        view["done"] = sum(t["verdict"] is not None for t in tests)
        view["total"] = len(tests)
        failing = next(((n, t) for n, t in enumerate(tests, 1) if t["verdict"] not in ("AC", None)), None)
        if caller.coach:
            view["tests"], view["message"] = tests, judgement["message"]
        elif serve.contest.show_failing_test and failing:
            view["failing"] = f"test {failing[0]}: {failing[1]['verdict']}"
        if judgement["verdict"] == "CE" and not caller.coach:
            view["message"] = judgement["message"]  # the compiler's words on the team's own source
    return view


def visible(serve: Serve, caller: Caller, text: str):
    """The submission numbered `text`, which the caller may see (else 404)."""
    number = ident(text)
    row = serve.store.submission(number) if number is not None else None
    if row is None or not (caller.coach or row["team_id"] == caller.team_id):
        raise HTTPException(404, "no such submission")  # another team's: as if it did not exist
    return row


LISTED = ("s.id, s.team_id, s.problem, s.language, s.filename, s.contest_ms, s.state, t.name AS team, "
          "j.verdict, j.score, j.max_cpu_ms, j.message, j.tests")


def own_rows(serve: Serve, caller: Caller, limit: int = -1) -> list[tuple]:
    """(submission, its valid judgement or None) of the caller's team (a coach: all), newest first,
    in one query (no source read)."""
    where = "" if caller.coach else "WHERE s.team_id = ? "
    rows = serve.store.rows(f"SELECT {LISTED} FROM submissions s JOIN teams t ON t.id = s.team_id LEFT JOIN "
                            f"judgements j ON j.submission_id = s.id AND j.valid = 1 {where}ORDER BY s.id DESC LIMIT ?",
                            *(() if caller.coach else (caller.team_id,)), limit)
    return [(row, row if row["verdict"] is not None else None) for row in rows]


def source_text(row) -> str:
    """A submission's source as text: its one file, or each file of its zip under its name."""
    if not row["zipped"]:
        return row["source"].decode("utf-8", "replace")
    from .grading import unzip

    return "\n\n".join(f"--- {name} ---\n{data.decode('utf-8', 'replace')}" for name, data in unzip(row["source"]).items())


def offered(serve: Serve) -> dict[str, str | None]:
    """Each of the coach's contest actions: None where it applies now, else why it does not. Freeze
    while the contest runs and the contestants' scoreboard is live; unfreeze while it is frozen;
    finalize once the contest has ended and every submission is judged (the final results are those
    the feed ends with: a judgement after them would move a final scoreboard); nothing once finalized."""
    clock = serve.clock
    if clock.finalized:
        return dict.fromkeys(("freeze", "unfreeze", "finalize"), "the contest is finalized: its results are final")
    frozen = clock.frozen_since_ms() is not None
    waiting = len(serve.store.queued())
    return {"freeze": "the contest has not started" if not clock.started else "the contest has ended" if clock.ended
            else "the scoreboard is frozen already" if frozen else None,
            "unfreeze": None if frozen else "the scoreboard is not frozen",
            "finalize": "the contest has not ended: finalize it after its end" if not clock.ended
            else f"{waiting} submission(s) wait for their judgement: finalize once they are judged" if waiting else None}
