"""The ASGI app: what every handler shares (the contest, its store and clock, the grader, the
templates), who the caller is, and the routes of the pages (pages.py) and of the CLICS API (api.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from ..errors import JudgeInputError
from .auth import SESSION_COOKIE, Auth, Caller
from .contest import language_of_name
from .scoreboard import Clock


class Serve:
    """The server's state, one per app."""

    def __init__(self, contest, problems: dict, store, grader, source_limit: int):
        from jinja2 import Environment, PackageLoader, select_autoescape

        self.contest, self.problems, self.store, self.grader = contest, problems, store, grader
        self.source_limit = source_limit  # bytes
        self.clock = Clock(contest, store)
        self.auth = Auth(store)
        self.templates = Environment(loader=PackageLoader("tcjudge.serve"), autoescape=select_autoescape(default=True))

    def page(self, request: Request, name: str, status: int = 200, **context) -> HTMLResponse:
        caller = getattr(request.state, "caller", None)
        html = self.templates.get_template(name).render(
            contest=self.contest, caller=caller, csrf=caller.csrf if caller else "", clock=self.clock,
            problems=self.problems, **context)
        return HTMLResponse(html, status_code=status)

    def submit(self, caller: Caller, problem: str, filename: str, data: bytes, zipped: bool) -> int:
        """Store a team's submission (committed before the answer) and wake the grader; JudgeInputError
        says why one is refused."""
        from .grading import safe_name, unzip

        if caller.team_id is None:
            raise JudgeInputError("only a team submits")
        if problem not in self.problems:
            raise JudgeInputError(f"no problem {problem!r} in this contest")
        if not self.clock.running:
            raise JudgeInputError("the contest is not running")
        if zipped:
            files = unzip(data, self.source_limit)
            names = list(files)
            if not all("/" not in name for name in names) and len(names) == 1:
                raise JudgeInputError("a single file must be at the zip's top level")
            language = {language_of_name(name, self.contest.languages) for name in names} - {None}
            if len(language) != 1:
                raise JudgeInputError("the zip's files are not in one of the contest's languages")
            filename = names[0] if len(names) == 1 else "files.zip"
        else:
            filename = safe_name(filename)
            language = {language_of_name(filename, self.contest.languages)} - {None}
            if not language:
                raise JudgeInputError(f"{filename}: not a file of the contest's languages "
                                      f"({', '.join(self.contest.languages)})")
        if zipped and len(names) > 1 and not self.problems[problem].kind.program:
            raise JudgeInputError(f"{problem} takes one file (a class), not several")
        language_id = next(iter(language))
        if _missing_toolchain(language_id):
            raise JudgeInputError(f"{language_id} cannot be graded on this server (its compiler is not installed)")
        if not zipped and len(data) > self.source_limit:
            raise JudgeInputError(f"the source is over {self.source_limit // 1024} KiB")
        if not data.strip():
            raise JudgeInputError("the source is empty")
        number = self.store.add_submission(caller.team_id, problem, language.pop(), filename, data, zipped,
                                           self.clock.now_ms())
        self.grader.wake(caller.team_id)
        return number


def _missing_toolchain(language_id: str) -> bool:
    from .. import languages
    from .contest import LANGUAGE_IDS

    return languages.EXTENSIONS[LANGUAGE_IDS[language_id][0]].toolchain() is None


def caller_of(request: Request) -> Caller | None:
    serve: Serve = request.app.state.serve
    return serve.auth.from_session(request.cookies.get(SESSION_COOKIE))


def need_caller(request: Request) -> Caller:
    caller = caller_of(request)
    if caller is None:
        raise HTTPException(303, headers={"Location": "/login"})
    request.state.caller = caller
    return caller


async def error_page(request: Request, exc: HTTPException) -> Response:
    if exc.status_code in (301, 302, 303, 307):
        return Response(status_code=exc.status_code, headers=exc.headers)
    serve: Serve = request.app.state.serve
    if request.url.path.startswith("/api"):  # the CLICS spec: a failure's body is {"code", "message"}
        return JSONResponse({"code": exc.status_code, "message": str(exc.detail)}, status_code=exc.status_code,
                            headers=exc.headers)
    return serve.page(request, "error.html", status=exc.status_code, message=exc.detail)


SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "same-origin",
                    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' "
                                               "'unsafe-inline'; frame-ancestors 'none'"}


class SecurityHeaders:
    """Pure ASGI (streams pass through untouched): the headers every answer carries."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def sending(message):
            if message["type"] == "http.response.start":
                have = {name.lower() for name, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [
                    (name.lower().encode(), value.encode()) for name, value in SECURITY_HEADERS.items()
                    if name.lower().encode() not in have]
            await send(message)

        await self.app(scope, receive, sending)


class ClientGone:
    """Pure ASGI: a client that goes away while its request is read (ClientDisconnect) is normal
    traffic, not a server error: one line in the log, no traceback; nothing was stored (a submission
    is stored only once its whole body is read)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        from starlette.requests import ClientDisconnect

        try:
            await self.app(scope, receive, send)
        except ClientDisconnect:
            print(f"judge: serve: a client went away during {scope.get('method', '')} {scope.get('path', '')}",
                  file=sys.stderr, flush=True)


def build_app(serve: Serve) -> Starlette:
    from starlette.middleware import Middleware

    from . import api, pages

    app = Starlette(routes=pages.routes() + api.routes(), exception_handlers={HTTPException: error_page},
                    middleware=[Middleware(ClientGone), Middleware(SecurityHeaders)])
    app.state.serve = serve
    return app


def warn_exposed(host: str) -> None:
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(f"judge: warning: listening on {host} without TLS: put a reverse proxy with TLS in front "
              "(docs/serve.md), or passwords and sessions cross the network in clear", file=sys.stderr)


def static_file(name: str) -> Path:
    return Path(__file__).parent / "static" / name
