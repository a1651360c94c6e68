"""The coach's actions: rejudge (a submission, a problem, a team), freeze, unfreeze and finalize the
contest, and export it (CSV, JSON, the CLICS contest package). A team asking for any of these gets
404, as if the page did not exist.
"""

from __future__ import annotations

import csv
import io

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from .auth import Caller
from .scoreboard import standings
from .state import need_coach, number, serve_of, with_form


def rejudge(request: Request, caller: Caller, form):
    serve = serve_of(request)
    if form.get("submission"):
        count = serve.store.requeue("id = ?", number(form, "submission"))
    elif form.get("problem"):
        count = serve.store.requeue("problem = ?", str(form["problem"]))
    elif form.get("team"):
        count = serve.store.requeue("team_id = ?", number(form, "team"))
    else:
        raise HTTPException(400, "rejudge what: a submission, a problem or a team")
    serve.grader.wake()
    back = f"/submissions/{form['submission']}" if form.get("submission") else "/submissions"
    return RedirectResponse(f"{back}?rejudged={count}", 303)


def freeze(request: Request, caller: Caller, form):
    import time

    serve = serve_of(request)
    action = form.get("action")
    if action == "freeze":
        serve.store.set_meta("frozen_at", repr(time.time()))
        serve.store.set_meta("freeze", "frozen")
    elif action == "unfreeze":
        serve.store.set_meta("thawed_at", repr(time.time()))
        serve.store.set_meta("freeze", "thawed")
    elif action == "finalize":
        serve.store.set_meta("finalized", repr(time.time()))
    else:
        raise HTTPException(400, "freeze, unfreeze or finalize")
    from .api import announce

    announce(serve, force=True)  # the state's event
    serve.grader.wake()
    return RedirectResponse("/scoreboard", 303)


def export(request: Request):
    serve = serve_of(request)
    need_coach(request)
    rows = serve.store.rows("SELECT s.id, t.name AS team, s.problem, s.language, s.contest_ms, j.verdict, j.score, "
                            "j.max_cpu_ms FROM submissions s JOIN teams t ON t.id = s.team_id LEFT JOIN judgements j "
                            "ON j.submission_id = s.id AND j.valid = 1 ORDER BY s.id")
    records = [dict(row) for row in rows]
    if request.path_params["format"] not in ("csv", "json", "zip"):
        raise HTTPException(404, "export.csv, export.json or export.zip")
    if request.path_params["format"] == "zip":  # the contest as a CLICS contest package
        from .api import contest_package

        return Response(contest_package(serve), media_type="application/zip",
                        headers={"Content-Disposition": f'attachment; filename="{serve.contest.id}.zip"'})
    if request.path_params["format"] == "json":
        board = standings(serve.store, serve.contest, serve.clock, list(serve.problems), True)
        board.pop("time")
        return JSONResponse({"contest": serve.contest.name, "submissions": records, "scoreboard": board})
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=["id", "team", "problem", "language", "contest_ms", "verdict", "score",
                                                "max_cpu_ms"], lineterminator="\n")
    writer.writeheader()
    writer.writerows(records)
    return Response(buffer.getvalue(), media_type="text/csv",
                    headers={"Content-Disposition": 'attachment; filename="results.csv"'})


def routes() -> list[Route]:
    return [Route("/coach/rejudge", with_form(rejudge, coach=True), methods=["POST"]),
            Route("/coach/freeze", with_form(freeze, coach=True), methods=["POST"]),
            Route("/coach/export.{format:str}", export)]
