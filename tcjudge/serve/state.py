"""What every handler shares: the server's state (the contest, its store and clock, the grader, the
templates), storing a team's submission, the scoreboard as a role sees it (a digest, for the live
pages), who the caller of a page is, and a page's posted form. The pages (pages.py, coach.py) and the
CLICS API (api.py) import it; app.py puts them together.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse

from ..errors import JudgeInputError
from .auth import SESSION_COOKIE, Auth, Caller, same
from .contest import LANGUAGE_IDS, LANGUAGE_NAMES, language_of_name
from .exports import label
from .scoreboard import Clock, standings
from .store import DiskFull, ident

TEAM_SEES = "c.from_team = ? OR c.to_team = ? OR (c.from_team IS NULL AND c.to_team IS NULL)"  # its clarifications
FORM_LIMITS = {"max_files": 1, "max_fields": 20}
FORM_BYTES = 64 * 1024  # a form's body beyond a source (a clarification's 4000 characters, url-encoded)
# a team's submissions at once (breaker 50c: one team stored 200 of 253 KiB in 18 s, about 25 GiB an hour,
# and nothing slowed it): those waiting for their first judgement, and those sent in any minute
QUEUED, PER_MINUTE = 10, 20
TEAMS_LOOKED_EVERY = 2.0  # seconds: how stale a scoreboard page may be about a team added from another process


class TooMany(JudgeInputError):
    """A submission over one of its team's bounds (QUEUED, PER_MINUTE): 429, on the page and the API."""


def bounded(waiting: int, last_minute: int) -> None:
    """Refuse a team's submission over its bounds, in words for the team (store.add_submission counts)."""
    if waiting >= QUEUED:
        raise TooMany(f"{QUEUED} of your submissions wait for their verdict already: send this one once one "
                      "of them is judged")
    if last_minute >= PER_MINUTE:
        raise TooMany(f"{PER_MINUTE} submissions in the last minute: wait a little before the next one")


class Serve:
    """The server's state, one per app."""

    def __init__(self, contest, problems: dict, store, grader, source_limit: int):
        from jinja2 import Environment, PackageLoader, select_autoescape

        self.contest, self.problems, self.store, self.grader = contest, problems, store, grader
        self.source_limit = source_limit  # bytes
        self.clock = Clock(contest, store)
        self.auth = Auth(store)
        self.templates = Environment(loader=PackageLoader("tcjudge.serve"), autoescape=select_autoescape(default=True))
        self.templates.filters["moment"] = moment
        # a problem as the pages name it: its letter, as the API's label, and its name (issue 47: its slug)
        self.letters = {slug: label(index) for index, slug in enumerate(problems)}
        self.templates.filters["letter"] = lambda slug: self.letters.get(slug, slug)
        self.templates.filters["titled"] = lambda slug: (f"{self.letters[slug]}: {problems[slug].name}"
                                                         if slug in problems else slug)
        self._boards: dict[bool, tuple[tuple, str]] = {}  # coach? -> (board_version(), board_digest)
        self._teams: tuple[float, tuple] = (-TEAMS_LOOKED_EVERY, ())  # (when looked, the teams table's signature)
        self.clarified = 0  # moves when a clarification is sent or read: the pages' streams look again
        # writes the event feed's news (the start's problems and state) before an event that may name
        # them: api.announce, which api.static_events sets here (the API is a floor above)
        self.announce = lambda: None
        self._clarified = threading.Lock()

    def page(self, request: Request, name: str, status: int = 200, **context) -> HTMLResponse:
        caller = getattr(request.state, "caller", None)
        unread, newest = self.clarification_state(caller) if caller else (0, 0)
        context.setdefault("clarified", f"{unread}-{newest}")  # (its page's stream says when it changes)
        shown = self.shown_problems(bool(caller and caller.coach))
        html = self.templates.get_template(name).render(
            contest=self.contest, caller=caller, csrf=caller.csrf if caller else "", clock=self.clock,
            shown_clock=self.clock.shown(), problems={slug: self.problems[slug] for slug in shown},
            path=request.url.path, source_limit=self.source_limit, language_ids=LANGUAGE_IDS,
            language_names=LANGUAGE_NAMES, unread=unread, **context)
        return HTMLResponse(html, status_code=status)

    def shown_problems(self, coach: bool) -> list[str]:
        """The problems a page, the API's scoreboard or a refusal may name: a team's, none before the
        start (their names are news: the submit and clarification forms and the scoreboard named
        them, and a refusal told a real problem from a made-up one); the coach's, all."""
        return list(self.problems) if coach or self.clock.started else []

    def clarifications_changed(self) -> None:
        with self._clarified:
            self.clarified += 1

    def clarification_state(self, caller: Caller) -> tuple[int, int]:
        """What the caller's clarifications show: its unread count (a team's: the answers and broadcasts
        since it last read its clarifications; the coach's: the questions no answer answers yet) and the
        newest clarification it sees (0: none)."""
        if caller.coach:
            found = self.store.row("SELECT (SELECT COUNT(*) FROM clarifications q WHERE q.from_team IS NOT NULL AND NOT "
                                   "EXISTS (SELECT 1 FROM clarifications a WHERE a.reply_to = q.id)) AS unread, "
                                   "(SELECT COALESCE(MAX(id), 0) FROM clarifications) AS newest")
        else:
            found = self.store.row(f"SELECT COALESCE(SUM(c.from_team IS NULL AND c.id > ?), 0) AS unread, "
                                   f"COALESCE(MAX(c.id), 0) AS newest FROM clarifications c WHERE {TEAM_SEES}",
                                   self._read(caller), caller.team_id, caller.team_id)
        return found["unread"], found["newest"]

    def clarifications_read(self, caller: Caller, newest: int) -> None:
        """A team has read its clarifications up to `newest` (its page showed them)."""
        if not caller.coach and newest > self._read(caller):
            self.store.set_meta(f"clarifications-read:{caller.username}", str(newest))
            self.clarifications_changed()

    def _read(self, caller: Caller) -> int:
        return int(self.store.meta(f"clarifications-read:{caller.username}", "0"))

    def board_digest(self, coach: bool) -> str:
        """The scoreboard as the teams (or the coach) see it, as a digest, made once per change the
        grader counts. A scoreboard page's stream says "board" when this changes: the grader's counter
        moves with every test of every team, and told a team in the freeze when other teams' hidden
        gradings ran, and how long each took (issue 47)."""
        version = self.board_version()
        if self._boards.get(coach, (None,))[0] != version:
            board = standings(self.store, self.contest, self.clock, self.shown_problems(coach), coach)
            board.pop("time")
            if coach:  # (the coach's actions it offers: finalize once the last judgement came, breaker 55b F5)
                board["actions"] = [self.clock.ended, self.clock.finalized, bool(self.store.queued())]
            shown = json.dumps(board, sort_keys=True).encode()
            self._boards[coach] = (version, hashlib.sha256(shown).hexdigest()[:16])
        return self._boards[coach][1]

    def board_version(self) -> tuple:
        """What moves when the scoreboard may have changed: the grader's counter, the start (it shows the
        problems), and the teams, which `judge accounts` adds from another process (breaker 54b: a team
        added during the contest was on no open scoreboard until a reload); the teams are looked at
        once per TEAMS_LOOKED_EVERY seconds at most, whatever the number of streams asking."""
        looked, teams = self._teams
        if time.monotonic() - looked >= TEAMS_LOOKED_EVERY:
            found = self.store.row("SELECT COUNT(*) AS n, COALESCE(MAX(id), 0) AS newest, "
                                   "COALESCE(SUM(LENGTH(name)), 0) AS letters FROM teams")
            teams = (found["n"], found["newest"], found["letters"])
            self._teams = (time.monotonic(), teams)
        return self.grader.version, self.clock.started, self.clock.ended, teams

    def submit(self, caller: Caller, problem: str, filename: str, data: bytes, zipped: bool) -> int:
        """Store a team's submission (committed before the answer) and wake the grader; JudgeInputError
        says why one is refused (store.DiskFull: the disk is under its floor)."""
        from .grading import safe_name, unzip

        if caller.team_id is None:
            raise JudgeInputError("only a team submits")
        if not self.clock.running:  # (before the problem: a refusal before the start names none)
            raise JudgeInputError("the contest has not started" if not self.clock.started else "the contest has ended")
        if problem not in self.problems:
            raise JudgeInputError(f"no problem {problem!r} in this contest")
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
                raise JudgeInputError(f"{filename}: not a file of the contest's languages ("
                                      + ", ".join(f"{LANGUAGE_NAMES[lid]}: {' '.join(LANGUAGE_IDS[lid])}"
                                                  for lid in self.contest.languages) + ")")
        if zipped and len(names) > 1 and not self.problems[problem].kind.program:
            raise JudgeInputError(f"{problem} takes one file (a class), not several")
        language_id = next(iter(language))
        if _missing_toolchain(language_id):
            raise JudgeInputError(f"{language_id} cannot be graded on this server (its compiler is not installed)")
        if not zipped and len(data) > self.source_limit:
            raise JudgeInputError(f"the source is over {self.source_limit // 1024} KiB")
        if not any(content.strip() for content in (files.values() if zipped else [data])):
            raise JudgeInputError("the source is empty")  # (a zip's files too)
        self.store.room()
        self.announce()  # (at the start, with no feed open: the problems were announced after their submissions)
        number = self.store.add_submission(caller.team_id, problem, language.pop(), filename, data, zipped,
                                           self.clock.now_ms(), bounded)
        self.grader.wake(caller.team_id)
        return number


    def measured(self, caller: Caller, slug: str, tests: list[dict]) -> list[dict]:
        """Of a submission's tests that ran, those whose figures (CPU time, memory) the caller may see:
        the coach, and a team where the contest shows the failing test, all of them; else a team sees
        the figures of the problem's samples alone, the tests it is shown (breaker 47c: a rejection's
        memory was its failing hidden test's, and a program allocating as many MiB as the hidden
        input's first byte read one byte of it per submission; the tests passed before it would tell
        as much)."""
        if caller.coach or self.contest.show_failing_test:
            return tests
        problem = self.problems.get(slug)
        samples = {test.name for test in problem.examples} if problem else set()
        return [test for test in tests if test["name"] in samples]


# the bidi controls: embeddings and overrides (LRE, RLE, PDF, LRO, RLO), isolates (LRI, RLI, FSI, PDI),
# the marks (LRM, RLM, ALM)
BIDI_CONTROLS = dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"))


def isolated(name: str) -> str:
    """A name in text alone (a page's <title>), between FSI and PDI so that its direction stays its own,
    its own bidi controls dropped: a PDI in it closed the FSI, and its RLO turned the rest of the line
    (breaker 50c: a team named 'Eve' PDI RLO 'Spill'). Where HTML can, a <bdi> isolates it."""
    return f"\u2068{name.translate(BIDI_CONTROLS)}\u2069"


def moment(epoch_ms: int):
    """A moment as a page shows it: a <time> in UTC, which the page's script writes in the reader's own
    time zone."""
    from datetime import datetime, timezone

    from markupsafe import Markup

    when = datetime.fromtimestamp(epoch_ms / 1000, timezone.utc)
    return Markup('<time datetime="{}">{}</time>').format(when.isoformat(timespec="seconds"),
                                                         when.strftime("%Y-%m-%d %H:%M UTC"))


def _missing_toolchain(language_id: str) -> bool:
    from .. import languages

    return languages.EXTENSIONS[LANGUAGE_IDS[language_id][0]].toolchain() is None


def disk_full(request: Request, err: Exception) -> str:
    """What a caller is told of a full disk (one line: DiskFull's); said in the server's log too,
    through uvicorn's, whose warnings the server throttles (server.Throttled: every request would be a
    line, where each was a traceback, breaker 50c)."""
    full = err if isinstance(err, DiskFull) else DiskFull()
    logging.getLogger("uvicorn.error").warning("the store's disk is full: %s %s answered 503 (%s)", request.method,
                                               request.url.path, full.why)
    return str(full)


def cookie_name(request: Request, name: str) -> str:
    """The name of the cookie `name` for this contest, over this request's scheme (Auth.cookie)."""
    return serve_of(request).auth.cookie(name, request.url.scheme == "https")


def caller_of(request: Request) -> Caller | None:
    serve: Serve = request.app.state.serve
    return serve.auth.from_session(request.cookies.get(cookie_name(request, SESSION_COOKIE)))


def need_caller(request: Request) -> Caller:
    caller = caller_of(request)
    if caller is None:
        raise HTTPException(303, headers={"Location": "/login"})
    request.state.caller = caller
    return caller


def serve_of(request: Request) -> Serve:
    return request.app.state.serve


def need_coach(request: Request) -> Caller:
    """The caller, who must be the coach (anyone else: 404, as if the page did not exist)."""
    caller = need_caller(request)
    if not caller.coach:
        raise HTTPException(404, "no such page")
    return caller


async def form_of(request: Request, caller: Caller):
    """The posted form, once its CSRF token is the session's (else 403). A field may be as long as the
    body may be: a pasted source over the source limit is refused by Serve.submit, which gives the
    page back with the source in it, where the parser's refusal was an error page."""
    serve = serve_of(request)
    form = await request.form(max_part_size=serve.source_limit + FORM_BYTES, **FORM_LIMITS)  # (app.Bounded: the body's)
    if not same(form.get("csrf"), caller.csrf):
        raise HTTPException(403, "the form's CSRF token is missing or wrong: reload the page")
    return form


def number(form, key: str) -> int:
    """A form's id field, read by store.ident (else 400)."""
    found = ident(str(form.get(key, "")))
    if found is None:
        raise HTTPException(400, f"{key}: a number")
    return found


def with_form(handler, coach: bool = False):
    """An endpoint that awaits its caller's form (a POST's) on the event loop, then runs `handler`
    (request, caller, form or None) on the thread pool."""

    async def endpoint(request: Request):
        caller = await run_in_threadpool(need_coach if coach else need_caller, request)
        form = await form_of(request, caller) if request.method == "POST" else None
        return await run_in_threadpool(handler, request, caller, form)

    return endpoint


def static_file(name: str) -> Path:
    return Path(__file__).parent / "static" / name
