"""The coach's actions: rejudge (a submission, a problem, a team), freeze, unfreeze and finalize the
contest, and export it (CSV, JSON, the CLICS contest package); the teams at a glance. A team asking for any of these gets
404, as if the page did not exist. Each contest action is offered, and done, only where it applies
(views.offered: finalize after the end, issue 47); a rejudge, an unfreeze and a finalize are asked on
a page that says what they will do (GET) and done by its form (POST).
"""

from __future__ import annotations

from markupsafe import Markup
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from .auth import Caller
from . import exports
from .scoreboard import standings
from .state import isolated, need_coach, number, serve_of, with_form
from .views import offered


REJUDGED = ("submission", "problem", "team")


def _rejudged(serve, fields) -> tuple[str, tuple, str, Markup]:
    """What a rejudge names (a submission, a problem or a team): its condition on the submissions, its
    argument, and its words for the coach, as text (the page's title) and as HTML (its heading and
    button: a team's name in a <bdi>, breaker 50c; in the title, state.isolated)."""
    if fields.get("submission"):
        found = number(fields, "submission")
        return "id = ?", (found,), f"submission {found}", Markup("submission {}").format(found)
    if fields.get("problem"):
        slug = str(fields["problem"])
        if slug not in serve.problems:
            raise HTTPException(400, f"no problem {slug!r} in this contest")
        what = f"every submission of {serve.letters[slug]}: {serve.problems[slug].name}"
        return "problem = ?", (slug,), what, Markup("{}").format(what)
    if fields.get("team"):
        found = number(fields, "team")
        team = serve.store.row("SELECT name FROM teams WHERE id = ?", found)
        if team is None:
            raise HTTPException(400, f"no team {found}")
        # (the name's direction stays its own in the title, the heading and the button, breakers 47c and 50c)
        return "team_id = ?", (found,), f"every submission of {isolated(team['name'])}", \
            Markup("every submission of <bdi>{}</bdi>").format(team["name"])
    raise HTTPException(400, "rejudge what: a submission, a problem or a team")


def rejudge(request: Request, caller: Caller, form):
    """GET: what the rejudge would judge again, to confirm; POST (the confirmed form): the submissions
    go back to the queue, each keeping its verdict until its new one is written."""
    serve = serve_of(request)
    where, args, what, shown = _rejudged(serve, form if form is not None else request.query_params)
    if serve.clock.finalized:
        raise HTTPException(409, "the contest is finalized: its results are final")
    if form is None:
        count = serve.store.row(f"SELECT COUNT(*) AS n FROM submissions WHERE state = 'judged' AND {where}", *args)["n"]
        back = f"/submissions/{args[0]}" if where == "id = ?" else "/submissions"
        return serve.page(request, "confirm.html", title=f"Rejudge {what}?", heading=Markup("Rejudge {}?").format(shown),
                          action="/coach/rejudge",
                          fields={key: value for key, value in request.query_params.items() if key in REJUDGED},
                          button=Markup("Rejudge {}").format(shown), back=back,
                          explain=f"{count} judged submission(s) will be judged again. Each keeps its verdict until "
                                  "its new one is written, which may differ, and the scoreboard moves with it.")
    count = serve.store.requeue(where, *args)
    serve.grader.wake()
    back = f"/submissions/{form['submission']}" if form.get("submission") else "/submissions"
    return RedirectResponse(f"{back}?rejudged={count}", 303)


CONFIRMED = {  # the contest actions a coach confirms on a page of their own: (title, button, what it does)
    "unfreeze": ("Unfreeze the scoreboard?", "Unfreeze", "Every team sees every result, those of the freeze "
                 "included, until a next freeze: the contest file's own, if it is still to come, starts at its time. "
                 "A freeze hides only what comes after it: the results seen stay seen."),
    "finalize": ("Finalize the contest?", "Finalize", "The results are final: the scoreboard is unfrozen for good, "
                 "no rejudge changes it any more, and the event feed ends. This cannot be undone."),
}


def freeze(request: Request, caller: Caller, form):
    """GET (unfreeze, finalize): the confirmation; POST: the action, where it applies now (views.offered),
    else 409 with the reason."""
    serve = serve_of(request)
    action = (form if form is not None else request.query_params).get("action")
    if action not in ("freeze", "unfreeze", "finalize"):
        raise HTTPException(400, "freeze, unfreeze or finalize")
    refused = offered(serve)[action]
    if refused:
        raise HTTPException(409, f"cannot {action}: {refused}")
    if form is None:
        if action not in CONFIRMED:
            raise HTTPException(405, "a freeze is asked with the scoreboard's button")
        title, button, explain = CONFIRMED[action]
        return serve.page(request, "confirm.html", title=title, action="/coach/freeze", fields={"action": action},
                          button=button, back="/scoreboard", explain=explain)
    getattr(serve.clock, action)()  # (scoreboard.Clock keeps what a freeze, an unfreeze and a finalize change)
    from .api import announce

    announce(serve, force=True)  # the state's event
    serve.grader.wake()
    return RedirectResponse("/scoreboard", 303)


def export(request: Request):
    """export.csv: the standings (results.csv); export.json: the standings, the awards and every
    submission (results.json); export.zip: the CLICS contest package (exports.py). Each a download."""
    serve = serve_of(request)
    need_coach(request)
    if request.path_params["format"] not in ("csv", "json", "zip"):
        raise HTTPException(404, "export.csv, export.json or export.zip")
    if request.path_params["format"] == "zip":  # the contest as a CLICS contest package
        return _package(serve)
    if request.path_params["format"] == "json":
        board = standings(serve.store, serve.contest, serve.clock, list(serve.problems), True)
        board.pop("time")
        return JSONResponse({"contest": serve.contest.name, "submissions": exports.submission_rows(serve),
                             "scoreboard": board, "awards": exports.awards(serve)},
                            headers=_download("results.json"))
    return _attachment(exports.results_csv(serve), "results.csv")


CHUNK = 1 << 20  # bytes of an export's file sent at a time


def _package(serve) -> StreamingResponse:
    """export.zip, written to a file beside the store (its disk, not /tmp's, which may be memory), then
    sent from it a chunk at a time: the server's memory stays flat whatever the store holds (breaker 50c:
    built whole in memory). The file has no name: it is gone once sent, or once the coach goes away."""
    import tempfile

    from .api import contest_package

    file = tempfile.TemporaryFile(dir=serve.store.path.parent, prefix=".export-")
    try:
        contest_package(serve, file)
        size = file.tell()
        file.seek(0)
    except BaseException:
        file.close()
        raise

    def chunks():
        with file:
            while chunk := file.read(CHUNK):
                yield chunk

    return StreamingResponse(chunks(), media_type="application/zip",
                             headers=_download(f"{serve.contest.id}.zip") | {"Content-Length": str(size)})


def submission_list(request: Request):
    """Every submission with its verdict (what export.csv was before it was the standings)."""
    serve = serve_of(request)
    need_coach(request)
    return _attachment(exports.submissions_csv(serve), "submissions.csv")


def _attachment(text: str, name: str) -> Response:
    return Response(text, media_type="text/csv", headers=_download(name))


def _download(name: str) -> dict[str, str]:
    """An export's header: a file the browser saves, named `name`, never a page that replaces the coach's
    (breaker 47c: export.json opened in the tab, where the CSVs and the zip downloaded)."""
    return {"Content-Disposition": f'attachment; filename="{name}"'}


def teams(request: Request):
    """Every team with its accounts, its submissions (sent, waiting), its place on the coach's scoreboard
    and its last submission, each linked to its submissions (DOMjudge's jury has such a page: breaker
    54b found none)."""
    serve = serve_of(request)
    need_coach(request)
    placed = {row["team_id"]: row for row in standings(serve.store, serve.contest, serve.clock, list(serve.problems),
                                                         True)["rows"]}
    found = serve.store.rows(
        "SELECT t.id, t.name, (SELECT group_concat(a.username, ', ') FROM accounts a WHERE a.team_id = t.id) AS usernames, "
        "COUNT(s.id) AS sent, COALESCE(SUM(s.state = 'queued'), 0) AS waiting, MAX(s.contest_ms) AS last_ms "
        "FROM teams t LEFT JOIN submissions s ON s.team_id = t.id GROUP BY t.id ORDER BY t.name")
    listed = [{"id": row["id"], "name": row["name"], "usernames": row["usernames"] or "", "sent": row["sent"],
               "waiting": row["waiting"], "last": "" if row["last_ms"] is None else row["last_ms"] // 60000,
               "placed": placed.get(row["id"])} for row in found]
    return serve.page(request, "teams.html", teams=listed, scoring=serve.contest.scoring)


def routes() -> list[Route]:
    return [Route("/coach/teams", teams), Route("/coach/rejudge", with_form(rejudge, coach=True), methods=["GET", "POST"]),
            Route("/coach/freeze", with_form(freeze, coach=True), methods=["GET", "POST"]),
            Route("/coach/export.{format:str}", export), Route("/coach/submissions.csv", submission_list)]
