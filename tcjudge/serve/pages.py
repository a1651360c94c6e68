"""The pages: log in, problems and statements, samples, submit, own submissions with their sources
(verdicts arrive by server-sent events), the scoreboard, clarifications; a coach's: every submission with
its source and tests, answers (the coach's actions: coach.py). Every query is filtered by the caller's team here, on the
server (docs/serve.md lists what each role sees).

The event loop only moves bytes: a handler that reads no body is a plain function (Starlette runs it
on its thread pool), and one that does awaits the body, then runs its store and template work there
too, so neither SQLite, argon2 nor a template holds up the other connections.
"""

from __future__ import annotations

import asyncio
import json

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response
from starlette.routing import Route

from ..errors import JudgeInputError
from .accounts import INVISIBLE
from .auth import (DEVICE_COOKIE, DEVICE_DAYS, LOGIN_COOKIE, PASSWORD_CAP, SESSION_COOKIE, SESSION_DAYS, USERNAME_CAP, Busy,
                   Caller, same)
from .scoreboard import standings
from .state import (FORM_LIMITS, TooMany, caller_of, cookie_name, disk_full, form_of, need_caller, number, serve_of,
                    static_file, with_form)
from .store import DiskFull
from .statements import samples, samples_zip, signatures, statement_html
from .views import (VERDICT_WORDS, clarification_threads, judgement_history, judgement_view, offered, own_rows,
                    source_text, submission_view, visible)

STREAMED = 100  # the newest submissions an event stream sends


def _cookie(request: Request, response: Response, name: str, value: str, max_age: int | None = None) -> None:
    response.set_cookie(cookie_name(request, name), value, max_age=max_age, httponly=True, samesite="strict",
                        path="/", secure=request.url.scheme == "https")


def home(request: Request):
    return RedirectResponse("/problems" if caller_of(request) else "/login", 303)


async def login(request: Request):
    serve = serve_of(request)
    import secrets

    if request.method != "POST":  # (GET, and HEAD, which Starlette routes here: never a body read)
        token = secrets.token_urlsafe(24)
        response = await run_in_threadpool(serve.page, request, "login.html", login_csrf=token)
        _cookie(request, response, LOGIN_COOKIE, token)
        return response
    form = await request.form(**FORM_LIMITS)
    if not same(form.get("csrf"), request.cookies.get(cookie_name(request, LOGIN_COOKIE), "")):
        raise HTTPException(403, "the form's CSRF token is missing or wrong: reload the page")
    address = request.client.host if request.client else "?"
    username = str(form.get("username", ""))[:USERNAME_CAP]
    device = request.cookies.get(cookie_name(request, DEVICE_COOKIE))
    try:
        caller = await serve.auth.check_password(username, str(form.get("password", ""))[:PASSWORD_CAP], address, device)
        error, status = "wrong username or password", 401
    except Busy:
        caller, error, status = None, "too many attempts at this account are waiting: try again in a few seconds", 429
    if caller is None:  # (the username stays in its field)
        token = secrets.token_urlsafe(24)
        response = await run_in_threadpool(serve.page, request, "login.html", error=error, login_csrf=token,
                                           username=username, status=status)
        _cookie(request, response, LOGIN_COOKIE, token)
        return response
    response = RedirectResponse("/problems", 303)
    session = await run_in_threadpool(serve.auth.new_session, caller)
    if not serve.auth.device(caller.username, device):  # (this browser's own turn at this account from now on)
        _cookie(request, response, DEVICE_COOKIE, serve.auth.device_cookie(caller.username),
                max_age=DEVICE_DAYS * 86400)
    _cookie(request, response, SESSION_COOKIE, session, max_age=SESSION_DAYS * 86400)
    _cookie(request, response, LOGIN_COOKIE, "", max_age=0)  # (deleted with its attributes: __Host- needs Secure)
    return response


async def logout(request: Request):
    caller = await run_in_threadpool(need_caller, request)
    await form_of(request, caller)
    session = request.cookies.get(cookie_name(request, SESSION_COOKIE), "")
    await run_in_threadpool(serve_of(request).auth.end_session, session)
    response = RedirectResponse("/login", 303)
    _cookie(request, response, SESSION_COOKIE, "", max_age=0)
    return response


def problems(request: Request):
    need_caller(request)
    return serve_of(request).page(request, "problems.html")


def _problem(request: Request):
    serve = serve_of(request)
    slug = request.path_params["slug"]
    if slug not in serve.problems or not (serve.clock.started or request.state.caller.coach):
        raise HTTPException(404, "no such problem")
    return serve.problems[slug]


def problem(request: Request):
    need_caller(request)
    found = _problem(request)
    serve = serve_of(request)
    return serve.page(request, "problem.html", problem=found, statement=statement_html(found), samples=samples(found),
                      signatures=signatures(found, serve.contest.languages))


def samples_file(request: Request):
    need_caller(request)
    found = _problem(request)
    if not found.examples:
        raise HTTPException(404, "this problem has no samples")  # (was an empty zip)
    return Response(samples_zip(found), media_type="application/zip",
                    headers={"Content-Disposition": f'attachment; filename="{found.slug}-samples.zip"'})


async def submit(request: Request):
    """GET (and HEAD): the form; POST: a file, or a pasted source and its file name, stored and queued. A refusal
    gives the form back as it was sent, the pasted source and its name in it (issue 47: any refusal
    lost the paste), and a file sent with a pasted source is refused, never one of them chosen."""
    serve = serve_of(request)
    caller = await run_in_threadpool(need_caller, request)
    if request.method != "POST":  # (HEAD too)
        return await run_in_threadpool(serve.page, request, "submit.html", chosen=request.query_params.get("problem"))
    form = await form_of(request, caller)
    upload = form.get("file")
    pasted, name = str(form.get("source", "")), str(form.get("filename", "")).strip()
    try:
        if upload is not None and getattr(upload, "filename", ""):
            if pasted.strip():
                raise JudgeInputError("a file and a pasted source: send one of them (the pasted source is below; "
                                      "to send the file, empty it and choose the file again)")
            data, name = await upload.read(serve.source_limit + 1), upload.filename
        else:
            data = pasted.encode()
            if not pasted.strip() and not name:  # (breaker 54b F8: told to name the file of a paste it had not made)
                raise JudgeInputError("nothing to send: choose a file, or paste a source and name its file")
            if not name:
                raise JudgeInputError("name the file of the pasted source (its extension picks the language)")
        zipped = name.lower().endswith(".zip")
        number = await run_in_threadpool(serve.submit, caller, str(form.get("problem", "")), name, data, zipped)
    except (JudgeInputError, DiskFull) as err:  # (a full disk's 503: the paste given back too)
        full = isinstance(err, DiskFull)
        return await run_in_threadpool(serve.page, request, "submit.html",
                                       error=disk_full(request, err) if full else err.message,
                                       status=503 if full else 429 if isinstance(err, TooMany) else 400,
                                       chosen=form.get("problem"), pasted=pasted,
                                       filename=name if not upload or not getattr(upload, "filename", "") else "")
    return RedirectResponse(f"/submissions/{number}", 303)


def submissions(request: Request):
    """A team's own submissions; the coach's: every team's, or one team's (?team=ID: the Teams page's links)."""
    serve = serve_of(request)
    caller = need_caller(request)
    team = None
    if caller.coach and "team" in request.query_params:
        team = serve.store.row("SELECT id, name FROM teams WHERE id = ?", number(request.query_params, "team"))
        if team is None:
            raise HTTPException(404, "no such team")
    views = [submission_view(serve, row, caller, judgement) | {"team": row["team"]}
             for row, judgement in own_rows(serve, caller, team=team["id"] if team else None)]
    return serve.page(request, "submissions.html", submissions=views, verdict_words=VERDICT_WORDS, team=team,
                      notice=rejudged_notice(request))


def rejudged_notice(request: Request) -> str:
    """What a rejudge's redirect (?rejudged=N) says on the page it lands on (breaker 55b F9: nothing)."""
    count = request.query_params.get("rejudged", "")
    if not count.isascii() or not count.isdigit() or len(count) > 9:
        return ""
    return f"{int(count)} submission(s) sent to be judged again: each keeps its verdict until its new one is written."


def submission(request: Request):
    serve = serve_of(request)
    caller = need_caller(request)
    row = visible(serve, caller, request.path_params["number"])
    return serve.page(request, "submission.html", s=submission_view(serve, row, caller), verdict_words=VERDICT_WORDS,
                      notice=rejudged_notice(request) if caller.coach else "",
                      history=judgement_history(serve, row["id"]) if caller.coach else [],
                      judged=judgement_view(serve, row, caller), source=source_text(row),
                      team=serve.store.row("SELECT name FROM teams WHERE id = ?", row["team_id"])["name"])


def events(request: Request):
    """The caller's submissions' states as server-sent events, sent when anything changed (a team's
    stream holds its own submissions only), or the scoreboard's "it changed" (board=1); and to a page
    that says what it showed of the caller's clarifications, when that changes (a clarification sent
    to the caller, or read on another page); to a page that says what it showed of the freeze, when
    that changes (Clock.shown's "freeze": issue 47 F12, a page open across a freeze kept its header
    and board's note as they were). It ends with its session (auth.Stream); ended to make room
    for a newer one, it says so first ("crowded"), and its page opens none again until it is looked at
    (static/judge.js: breaker 47c, six tabs of a session ended each other's streams without end)."""
    from sse_starlette.sse import EventSourceResponse

    serve = serve_of(request)
    caller = need_caller(request)
    held = serve.auth.streaming(request.cookies.get(cookie_name(request, SESSION_COOKIE), ""), caller)

    board = request.query_params.get("board") == "1"  # the scoreboard page: told that it may have changed
    quiet = request.query_params.get("submissions") == "0"  # a page without either: its clarifications only
    told = request.query_params.get("clarifications")  # "unread-newest" as the page showed it (Serve.page)
    frozen = request.query_params.get("clock")  # the freeze as the page showed it (Clock.shown's "freeze")

    def views() -> str:
        return json.dumps([submission_view(serve, row, caller, judgement) | {"team": row["team"]}
                           for row, judgement in own_rows(serve, caller, STREAMED)])

    async def stream():
        seen, last, clarified, said, moved, freeze = None, None, None, told, None, frozen
        while True:
            if await request.is_disconnected() or not await held.going():
                if held.crowded:
                    yield {"event": "crowded", "data": "1"}
                return
            if freeze is not None and serve.clock.moved() != moved:  # (a coach's action, the file's freeze time)
                moved = serve.clock.moved()
                state = (await run_in_threadpool(serve.clock.shown))["freeze"]
                if state != freeze:
                    freeze = state
                    yield {"event": "clock", "data": state}
            if said is not None and serve.clarified != clarified:  # (a clarification sent or read)
                clarified = serve.clarified
                unread, newest = await run_in_threadpool(serve.clarification_state, caller)
                if f"{unread}-{newest}" != said:
                    said = f"{unread}-{newest}"
                    yield {"event": "clarifications", "data": said}
            if quiet:
                await asyncio.sleep(0.5)
                continue
            version = await run_in_threadpool(serve.board_version) if board else serve.grader.team_version(caller.team_id)
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

    return held.answer(EventSourceResponse(stream(), ping=15))


def scoreboard(request: Request):
    serve = serve_of(request)
    caller = need_caller(request)
    board = standings(serve.store, serve.contest, serve.clock, serve.shown_problems(caller.coach), caller.coach)
    medals = {}  # the final board's medals, as its awards say them (breaker 55b F9: only in the exports)
    if serve.clock.finalized and serve.contest.medals:
        from .exports import awards

        medals = {int(team): award["id"].removesuffix("-medal") for award in awards(serve)
                  if award["id"].endswith("-medal") for team in award["team_ids"]}
    return serve.page(request, "scoreboard.html", board=board, offered=offered(serve) if caller.coach else None,
                      medals=medals)


TEXT_CHARS = 4000  # a clarification's characters at most (its form counts them; a maxlength cut a paste silently)
WAITING = 10  # a team's questions that may wait for an answer at once


def readable(text: str) -> bool:
    """Whether a text has something to read: a character beyond spaces, controls and format characters
    (Unicode's Z and C: zero-width spaces and joiners, bidi marks), marks with nothing to mark, and the
    few letters that show nothing (a question of zero-width spaces was taken)."""
    import unicodedata

    return any(unicodedata.category(c)[0] not in "ZCM" and c not in INVISIBLE for c in text)


def clarifications(request: Request, caller: Caller, form):
    """GET: the caller's clarifications as threads (a team's are then read: its badge goes); POST: a
    team's question, or the coach's answer (to the asking team, or to every team) or broadcast. A
    refusal gives the page back with the text in the form it came from and the reason beside it
    (never a silent cut: a text over TEXT_CHARS was cut to them)."""
    serve = serve_of(request)
    if form is None:
        return _clarifications_page(request, caller, {})
    kept = {"text": str(form.get("text", "")).replace("\r\n", "\n").strip(),  # (a browser sends a line break as CR LF)
            "problem": str(form.get("problem", "")) or None,
            "reply_to": number(form, "reply_to") if caller.coach and form.get("reply_to") else None}
    question = None
    if kept["reply_to"]:
        question = serve.store.row("SELECT * FROM clarifications WHERE id = ? AND from_team IS NOT NULL",
                                   kept["reply_to"])
        if question is None:
            raise HTTPException(400, f"no question {kept['reply_to']}")
    refused = _refused(serve, kept)
    if refused is None:
        serve.announce()  # (the problem a question names, announced before it)
    if refused is None and caller.coach:  # an answer (to its team, or to all) or a broadcast
        to_team = question["from_team"] if question and form.get("to") != "all" else None
        problem = kept["problem"] or (question["problem"] if question else None)
        serve.store.add_clarification(None, to_team, kept["reply_to"], problem, kept["text"], serve.clock.now_ms())
    elif refused is None and serve.store.add_clarification(caller.team_id, None, None, kept["problem"], kept["text"],
                                                           serve.clock.now_ms(), waiting=WAITING) is None:
        refused = (f"{WAITING} of your questions wait for an answer already: ask this one once the judges have "
                   "answered one of them")
    if refused is not None:
        return _clarifications_page(request, caller, kept | {"error": refused}, status=400)
    serve.clarifications_changed()
    return RedirectResponse("/clarifications", 303)


def _refused(serve, kept: dict) -> str | None:
    """Why a clarification is refused, in words for its sender; None: it is taken. Before the start it
    names no problem, and a real problem is refused in the words a made-up one is (the refusals told
    them apart)."""
    if not readable(kept["text"]):
        return "the text has nothing to read (only spaces or invisible characters)"
    if len(kept["text"]) > TEXT_CHARS:
        return f"the text is {len(kept['text'])} characters long, over {TEXT_CHARS}: shorten it (it is in its form)"
    if kept["problem"] is not None and not serve.clock.started:
        return "before the contest starts, a clarification is a general one: the problems are named from the start"
    if kept["problem"] is not None and kept["problem"] not in serve.problems:
        return f"no problem {kept['problem']!r} in this contest"
    return None


def _clarifications_page(request: Request, caller: Caller, kept: dict, status: int = 200):
    """The clarifications page (its threads then read), `kept`: a refused form's text and its reason."""
    serve = serve_of(request)
    serve.clarifications_read(caller, serve.clarification_state(caller)[1])
    return serve.page(request, "clarifications.html", status=status, threads=clarification_threads(serve, caller),
                      kept=kept, text_chars=TEXT_CHARS)


async def static(request: Request):
    name = request.path_params["name"]
    if name not in ("judge.js", "judge.css"):
        raise HTTPException(404, "no such file")
    return FileResponse(static_file(name))


def routes() -> list[Route]:
    return [Route("/", home), Route("/login", login, methods=["GET", "POST"]), Route("/logout", logout, methods=["POST"]),
            Route("/problems", problems), Route("/problems/{slug}", problem),
            Route("/problems/{slug}/samples.zip", samples_file), Route("/submit", submit, methods=["GET", "POST"]),
            Route("/submissions", submissions), Route("/submissions/{number}", submission),
            Route("/events", events), Route("/scoreboard", scoreboard),
            Route("/clarifications", with_form(clarifications), methods=["GET", "POST"]),
            Route("/static/{name}", static)]

