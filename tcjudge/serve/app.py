"""The ASGI app: the routes of the pages (pages.py, the coach's coach.py) and of the CLICS API
(api.py) over the server's state (state.py), the site's icon, an error as its caller reads it, and
what wraps every request (the security headers and what a browser may keep, a client that goes away,
a request that another site makes, a body over its limit).
"""

from __future__ import annotations

import logging
import sqlite3
import struct
import sys
from functools import cache

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import JudgeInputError
from .state import FORM_BYTES, Serve, disk_full
from .store import full


async def error_page(request: Request, exc: HTTPException) -> Response:
    if exc.status_code in (301, 302, 303, 307):
        if "text/event-stream" in request.headers.get("accept", ""):  # an EventSource: to the login page?
            return Response(status_code=204)  # (it stops, where the login page's HTML was an error it reported)
        return Response(status_code=exc.status_code, headers=exc.headers)
    serve: Serve = request.app.state.serve
    if exc.status_code == 413 and request.url.path == "/submit" and getattr(request.state, "caller", None):
        return await run_in_threadpool(serve.page, request, "submit.html", status=413, error=(
            f"What was sent is over the limit: a source of at most {serve.source_limit // 1024} KiB. Nothing was "
            "stored, and a pasted source that long cannot be given back: paste or choose a shorter one."))
    if request.url.path.startswith("/api"):  # the CLICS spec: a failure's body is {"code", "message"}
        return JSONResponse({"code": exc.status_code, "message": str(exc.detail)}, status_code=exc.status_code,
                            headers=exc.headers)
    return serve.page(request, "error.html", status=exc.status_code, message=exc.detail)


async def input_error(request: Request, exc: JudgeInputError) -> Response:
    """A user's mistake that no handler turned into an answer (a stored file that breaks a rule made
    after it) is a 400 with its one line, never a server error."""
    return await error_page(request, HTTPException(400, exc.message))


RETRY_FULL = 60  # seconds a client told that the disk is full is asked to wait (Retry-After)


async def store_error(request: Request, exc: sqlite3.OperationalError) -> Response:
    """A full disk (SQLite's 'database or disk is full' in any request, or the store's floor: DiskFull)
    is a 503 with its one line, on a page or in the API's JSON, and a line in the log (throttled), never
    a traceback (breaker 50c: every login and submission was a 500 with one); any other is the server's
    error it was."""
    if not full(exc):
        raise exc
    return await error_page(request, HTTPException(503, disk_full(request, exc),
                                                   headers={"Retry-After": str(RETRY_FULL)}))


KEPT = ("/static/", "/favicon.ico")  # what a browser may keep: the same files for everyone
SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "same-origin",
                    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' "
                                               "'unsafe-inline'; frame-ancestors 'none'"}


class SecurityHeaders:
    """Pure ASGI (streams pass through untouched): the headers every answer carries, and `Cache-Control:
    no-store` on every one but the static files' (issue 47: after logging out on a shared PC, the Back
    button showed the pages of the team logged in, from the browser's cache)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        added = SECURITY_HEADERS | ({} if scope["path"].startswith(KEPT) else {"Cache-Control": "no-store"})

        async def sending(message):
            if message["type"] == "http.response.start":
                have = {name.lower() for name, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [
                    (name.lower().encode(), value.encode()) for name, value in added.items()
                    if name.lower().encode() not in have]
            await send(message)

        await self.app(scope, receive, sending)


class ClientGone:
    """Pure ASGI: a client that goes away while its request is read (ClientDisconnect) is normal
    traffic, not a server error: a warning, no traceback, said through uvicorn's log, whose warnings
    the server throttles (server.Throttled: a client could make it one line a request); nothing was
    stored (a submission is stored only once its whole body is read)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        from starlette.requests import ClientDisconnect

        try:
            await self.app(scope, receive, send)
        except ClientDisconnect:
            logging.getLogger("uvicorn.error").warning("a client went away during %s %s", scope.get("method", ""),
                                                       scope.get("path", ""))


class FromThisSite:
    """Pure ASGI: a request that changes something (any method but GET, HEAD and OPTIONS) that the
    browser says comes from another site, or from another origin of this one (Sec-Fetch-Site:
    cross-site, same-site: another port, a sibling subdomain), is refused with 403 before any handler
    sees it. A session cookie rides along with such a request, and a same-site page may even have
    planted a login form's cookie; the CSRF tokens (a form's field, the API's X-CSRF-Token header) are
    the defence for the clients that send no such header (curl, an API client, an old browser)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["method"] not in ("GET", "HEAD", "OPTIONS"):
            where = dict(scope["headers"]).get(b"sec-fetch-site", b"").lower()
            if where in (b"cross-site", b"same-site"):
                refused = HTTPException(403, "a request from another site changes nothing here")
                return await (await error_page(Request(scope), refused))(scope, receive, send)
        await self.app(scope, receive, send)


LOGIN_BYTES = 4096  # a login form's body: a CSRF token, a username and a password


def body_limit(serve: Serve, path: str) -> int:
    """The most a request's body may hold: a submission's source (in a form, or base64 in the API's
    JSON, 4/3 of its zip), a login's few fields, or a form's."""
    if path == "/submit":
        return serve.source_limit + FORM_BYTES
    if path.startswith("/api/"):
        return 2 * serve.source_limit + 4096
    return LOGIN_BYTES if path == "/login" else FORM_BYTES


class Bounded:
    """Pure ASGI: a request's body is read up to its limit (body_limit) and no further: a Content-Length
    over it is refused before a byte is read, and a body that grows past it as it arrives (chunked) is
    refused where it does. Either is a 413 raised where a handler reads, so a handler that checks who
    asks before it reads a body (every one that can) reads nothing for a caller it refuses. (Before:
    a 128 MiB upload to /login went to disk in full before its 403, issue 47.) A GET, HEAD or OPTIONS
    passes unread: no handler reads its body, a HEAD being answered as its GET (breaker 47c: /login and
    /submit took a HEAD for their POST, and read its body of any size)."""

    def __init__(self, app, serve: Serve):
        self.app, self.serve = app, serve

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            return await self.app(scope, receive, send)
        limit = body_limit(self.serve, scope["path"])
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        read = 0

        async def receiving():
            nonlocal read
            if not declared.isdigit() or int(declared) > limit:
                raise HTTPException(413, f"the request's body is over its limit ({limit // 1024} KiB)")
            message = await receive()
            read += len(message.get("body", b""))
            if read > limit:
                raise HTTPException(413, f"the request's body is over its limit ({limit // 1024} KiB)")
            return message

        await self.app(scope, receiving, send)


# The site's icon, drawn here: a white check on the pages' header blue, its corners clear (issue 47: a
# browser asks for /favicon.ico, and its 404 was an error in the console on every session's first page).
ICON = (" ############## ", "################", "################", "############..##", "###########...##",
        "##########...###", "#########...####", "##..#####...####", "##...###...#####", "###...#...######",
        "####.....#######", "#####...########", "######.#########", "################", "################",
        " ############## ")
ICON_COLOURS = {" ": b"\0\0\0\0", "#": bytes((0x57, 0x35, 0x1D, 0xFF)), ".": b"\xff\xff\xff\xff"}  # BGRA


@cache
def icon() -> bytes:
    """ICON as an .ico file: one 16x16 32-bit bitmap (rows bottom up), its AND mask empty (alpha says it)."""
    pixels = b"".join(ICON_COLOURS[dot] for row in reversed(ICON) for dot in row)
    bitmap = struct.pack("<IiiHHIIiiII", 40, 16, 32, 1, 32, 0, 0, 0, 0, 0, 0) + pixels + bytes(16 * 4)
    return struct.pack("<HHH", 0, 1, 1) + struct.pack("<BBBBHHII", 16, 16, 0, 0, 1, 32, len(bitmap), 22) + bitmap


def favicon(request: Request) -> Response:
    return Response(icon(), media_type="image/x-icon", headers={"Cache-Control": "max-age=86400"})


def build_app(serve: Serve) -> Starlette:
    from starlette.middleware import Middleware

    from . import api, coach, pages

    app = Starlette(routes=pages.routes() + coach.routes() + api.routes() + [Route("/favicon.ico", favicon)],
                    exception_handlers={HTTPException: error_page, JudgeInputError: input_error,
                                        sqlite3.OperationalError: store_error},
                    middleware=[Middleware(ClientGone), Middleware(SecurityHeaders), Middleware(FromThisSite),
                                Middleware(Bounded, serve=serve)])
    app.state.serve = serve
    return app


def warn_exposed(host: str) -> None:
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(f"judge: warning: listening on {host} without TLS: put a reverse proxy with TLS in front "
              "(docs/serve.md), or passwords and sessions cross the network in clear", file=sys.stderr)
