"""The pages: log in, problems and statements, samples, submit, own submissions (verdicts arrive by
server-sent events), the scoreboard, clarifications; a coach's: every submission with its source and
tests, rejudge, freeze, answers, export. Every query is filtered by the caller's team here, on the
server (docs/serve.md lists what each role sees).

The event loop only moves bytes: a handler that reads no body is a plain function (Starlette runs it
on its thread pool), and one that does awaits the body, then runs its store and template work there
too, so neither SQLite, argon2 nor a template holds up the other connections.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from ..errors import JudgeInputError
from .auth import LOGIN_COOKIE, SESSION_COOKIE, SESSION_DAYS, Caller, same
from .scoreboard import standings
from .state import Serve, caller_of, need_caller, static_file
from .statements import samples_zip, statement_html
from .store import ident

FORM_LIMITS = {"max_files": 1, "max_fields": 20}
STREAMED = 100  # the newest submissions an event stream sends


def _serve(request: Request) -> Serve:
    return request.app.state.serve


def _cookie(request: Request, response: Response, name: str, value: str, max_age: int | None = None) -> None:
    response.set_cookie(name, value, max_age=max_age, httponly=True, samesite="strict", path="/",
                        secure=request.url.scheme == "https")


async def _form(request: Request, caller: Caller):
    """The posted form, once its CSRF token is the session's (else 403)."""
    serve = _serve(request)
    form = await request.form(max_part_size=serve.source_limit + 1024, **FORM_LIMITS)
    if not same(form.get("csrf"), caller.csrf):
        raise HTTPException(403, "the form's CSRF token is missing or wrong: reload the page")
    return form


def _number(form, key: str) -> int:
    number = ident(str(form.get(key, "")))
    if number is None:
        raise HTTPException(400, f"{key}: a number")
    return number


def _coach(request: Request) -> Caller:
    caller = need_caller(request)
    if not caller.coach:
        raise HTTPException(404, "no such page")
    return caller


def home(request: Request):
    return RedirectResponse("/problems" if caller_of(request) else "/login", 303)


async def login(request: Request):
    serve = _serve(request)
    import secrets

    if request.method == "GET":
        token = secrets.token_urlsafe(24)
        response = await run_in_threadpool(serve.page, request, "login.html", login_csrf=token)
        _cookie(request, response, LOGIN_COOKIE, token)
        return response
    form = await request.form(**FORM_LIMITS)
    if not same(form.get("csrf"), request.cookies.get(LOGIN_COOKIE, "")):
        raise HTTPException(403, "the form's CSRF token is missing or wrong: reload the page")
    address = request.client.host if request.client else "?"
    username = str(form.get("username", ""))[:64]
    caller = await serve.auth.check_password(username, str(form.get("password", ""))[:256], address)
    if caller is None:
        token = secrets.token_urlsafe(24)
        response = await run_in_threadpool(serve.page, request, "login.html", error="wrong username or password",
                                           login_csrf=token, status=401)
        _cookie(request, response, LOGIN_COOKIE, token)
        return response
    response = RedirectResponse("/problems", 303)
    session = await run_in_threadpool(serve.auth.new_session, caller)
    _cookie(request, response, SESSION_COOKIE, session, max_age=SESSION_DAYS * 86400)
    response.delete_cookie(LOGIN_COOKIE, path="/")
    return response


async def logout(request: Request):
    caller = await run_in_threadpool(need_caller, request)
    await _form(request, caller)
    await run_in_threadpool(_serve(request).auth.end_session, request.cookies.get(SESSION_COOKIE, ""))
    response = RedirectResponse("/login", 303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


def problems(request: Request):
    need_caller(request)
    return _serve(request).page(request, "problems.html")


def _problem(request: Request):
    serve = _serve(request)
    slug = request.path_params["slug"]
    if slug not in serve.problems or not (serve.clock.started or request.state.caller.coach):
        raise HTTPException(404, "no such problem")
    return serve.problems[slug]


def problem(request: Request):
    need_caller(request)
    found = _problem(request)
    return _serve(request).page(request, "problem.html", problem=found, statement=statement_html(found))


def samples(request: Request):
    need_caller(request)
    found = _problem(request)
    return Response(samples_zip(found), media_type="application/zip",
                    headers={"Content-Disposition": f'attachment; filename="{found.slug}-samples.zip"'})


async def submit(request: Request):
    serve = _serve(request)
    caller = await run_in_threadpool(need_caller, request)
    if request.method == "GET":
        return await run_in_threadpool(serve.page, request, "submit.html", chosen=request.query_params.get("problem"))
    form = await _form(request, caller)
    upload = form.get("file")
    try:
        if upload is not None and getattr(upload, "filename", ""):
            data = await upload.read(serve.source_limit + 1)
            name = upload.filename
        else:
            data = str(form.get("source", "")).encode()
            name = str(form.get("filename", "")).strip()
            if not name:
                raise JudgeInputError("name the file (its extension picks the language)")
        zipped = name.lower().endswith(".zip")
        number = await run_in_threadpool(serve.submit, caller, str(form.get("problem", "")), name, data, zipped)
    except JudgeInputError as err:
        return await run_in_threadpool(serve.page, request, "submit.html", status=400, error=err.message,
                                       chosen=form.get("problem"))
    return RedirectResponse(f"/submissions/{number}", 303)


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


def _visible(serve: Serve, caller: Caller, text: str):
    number = ident(text)
    row = serve.store.submission(number) if number is not None else None
    if row is None or not (caller.coach or row["team_id"] == caller.team_id):
        raise HTTPException(404, "no such submission")  # another team's: as if it did not exist
    return row


LISTED = ("s.id, s.team_id, s.problem, s.language, s.filename, s.contest_ms, s.state, t.name AS team, "
          "j.verdict, j.score, j.max_cpu_ms, j.message, j.tests")


def _own_rows(serve: Serve, caller: Caller, limit: int = -1) -> list[tuple]:
    """(submission, its valid judgement or None) of the caller's team (a coach: all), newest first,
    in one query (no source read)."""
    where = "" if caller.coach else "WHERE s.team_id = ? "
    rows = serve.store.rows(f"SELECT {LISTED} FROM submissions s JOIN teams t ON t.id = s.team_id LEFT JOIN "
                            f"judgements j ON j.submission_id = s.id AND j.valid = 1 {where}ORDER BY s.id DESC LIMIT ?",
                            *(() if caller.coach else (caller.team_id,)), limit)
    return [(row, row if row["verdict"] is not None else None) for row in rows]


def submissions(request: Request):
    serve = _serve(request)
    caller = need_caller(request)
    views = [submission_view(serve, row, caller, judgement) | {"team": row["team"]}
             for row, judgement in _own_rows(serve, caller)]
    return serve.page(request, "submissions.html", submissions=views)


def submission(request: Request):
    serve = _serve(request)
    caller = need_caller(request)
    row = _visible(serve, caller, request.path_params["number"])
    source = None
    if caller.coach:
        source = _source_text(row)
    return serve.page(request, "submission.html", s=submission_view(serve, row, caller), source=source,
                      team=serve.store.row("SELECT name FROM teams WHERE id = ?", row["team_id"])["name"])


def _source_text(row) -> str:
    if not row["zipped"]:
        return row["source"].decode("utf-8", "replace")
    from .grading import unzip

    return "\n\n".join(f"--- {name} ---\n{data.decode('utf-8', 'replace')}" for name, data in unzip(row["source"]).items())


def events(request: Request):
    """The caller's submissions' states as server-sent events, sent when anything changed (a team's
    stream holds its own submissions only)."""
    from sse_starlette.sse import EventSourceResponse

    serve = _serve(request)
    caller = need_caller(request)

    board = request.query_params.get("board") == "1"  # the scoreboard page: told that it may have changed

    def views() -> str:
        return json.dumps([submission_view(serve, row, caller, judgement) | {"team": row["team"]}
                           for row, judgement in _own_rows(serve, caller, STREAMED)])

    async def stream():
        seen, last = None, None
        while True:
            if await request.is_disconnected():
                return
            version = serve.grader.version if board else serve.grader.team_version(caller.team_id)
            if version != seen:
                seen = version
                if board:  # (said when the board as the caller sees it changed: Serve.board_digest)
                    shown = await run_in_threadpool(serve.board_digest, caller.coach)
                    if shown != last:
                        last = shown
                        yield {"event": "board", "data": shown}
                        await asyncio.sleep(2)  # at most one reload of the board per 2 s
                    continue
                data = await run_in_threadpool(views)
                if data != last:
                    last = data
                    yield {"event": "submissions", "data": data}
            await asyncio.sleep(0.5)

    return EventSourceResponse(stream(), ping=15)


def scoreboard(request: Request):
    serve = _serve(request)
    caller = need_caller(request)
    board = standings(serve.store, serve.contest, serve.clock, list(serve.problems), caller.coach)
    return serve.page(request, "scoreboard.html", board=board)


def with_form(handler, coach: bool = False):
    """An endpoint that awaits its caller's form (a POST's) on the event loop, then runs `handler`
    (request, caller, form or None) on the thread pool."""

    async def endpoint(request: Request):
        caller = await run_in_threadpool(_coach if coach else need_caller, request)
        form = await _form(request, caller) if request.method == "POST" else None
        return await run_in_threadpool(handler, request, caller, form)

    return endpoint


def clarifications(request: Request, caller: Caller, form):
    serve = _serve(request)
    if form is not None:
        text = str(form.get("text", "")).strip()[:4000]
        problem = str(form.get("problem", "")) or None
        if not text or (problem is not None and problem not in serve.problems):
            raise HTTPException(400, "a clarification needs a text (and a problem of the contest, or none)")
        if caller.coach:  # an answer (to its team, or to all) or a broadcast
            reply_to = _number(form, "reply_to") if form.get("reply_to") else None
            question = serve.store.row("SELECT * FROM clarifications WHERE id = ?", reply_to) if reply_to else None
            to_team = question["from_team"] if question and form.get("to") != "all" else None
            serve.store.add_clarification(None, to_team, reply_to, problem or (question["problem"] if question else None),
                                          text, serve.clock.now_ms())
        else:
            serve.store.add_clarification(caller.team_id, None, None, problem, text, serve.clock.now_ms())
        return RedirectResponse("/clarifications", 303)
    if caller.coach:
        rows = serve.store.rows("SELECT c.*, t.name AS team FROM clarifications c LEFT JOIN teams t ON t.id = c.from_team "
                                "ORDER BY c.id DESC")
    else:
        rows = serve.store.rows("SELECT c.*, NULL AS team FROM clarifications c WHERE c.from_team = ? OR c.to_team = ? "
                                "OR (c.from_team IS NULL AND c.to_team IS NULL) ORDER BY c.id DESC",
                                caller.team_id, caller.team_id)
    return serve.page(request, "clarifications.html", clarifications=rows)


def rejudge(request: Request, caller: Caller, form):
    serve = _serve(request)
    if form.get("submission"):
        count = serve.store.requeue("id = ?", _number(form, "submission"))
    elif form.get("problem"):
        count = serve.store.requeue("problem = ?", str(form["problem"]))
    elif form.get("team"):
        count = serve.store.requeue("team_id = ?", _number(form, "team"))
    else:
        raise HTTPException(400, "rejudge what: a submission, a problem or a team")
    serve.grader.wake()
    back = f"/submissions/{form['submission']}" if form.get("submission") else "/submissions"
    return RedirectResponse(f"{back}?rejudged={count}", 303)


def freeze(request: Request, caller: Caller, form):
    import time

    serve = _serve(request)
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
    serve = _serve(request)
    _coach(request)
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


async def static(request: Request):
    name = request.path_params["name"]
    if name not in ("judge.js", "judge.css"):
        raise HTTPException(404, "no such file")
    return FileResponse(static_file(name))


def routes() -> list[Route]:
    return [Route("/", home), Route("/login", login, methods=["GET", "POST"]), Route("/logout", logout, methods=["POST"]),
            Route("/problems", problems), Route("/problems/{slug}", problem),
            Route("/problems/{slug}/samples.zip", samples), Route("/submit", submit, methods=["GET", "POST"]),
            Route("/submissions", submissions), Route("/submissions/{number}", submission),
            Route("/events", events), Route("/scoreboard", scoreboard),
            Route("/clarifications", with_form(clarifications), methods=["GET", "POST"]),
            Route("/coach/rejudge", with_form(rejudge, coach=True), methods=["POST"]),
            Route("/coach/freeze", with_form(freeze, coach=True), methods=["POST"]),
            Route("/coach/export.{format:str}", export), Route("/static/{name}", static)]

