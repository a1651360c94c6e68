"""`judge serve`'s long-lived streams, whatever opens them (breaker 47c): the CLICS API's event feed on a
session's cookie outlived logging out and was counted in no cap (12 on one session, all open), one
team's feeds with HTTP Basic were capped by nothing (200 at once from two addresses filled
--connections), and a Basic feed went on after `judge accounts` gave its account a new password.
Each request runs on the real app in-process, as an ASGI call whose client stays until it leaves."""

from __future__ import annotations

import asyncio
import base64
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

from tcjudge.serve import auth  # noqa: E402

from .test_serve import Site, csrf_of  # noqa: E402

PATIENCE = 120  # seconds a test waits for what the server does on its own before it fails (a busy machine)


class Call:
    """One request in flight on the app: its status, what it was sent, whether its answer ended; its
    client stays connected until `leave`."""

    def __init__(self, app, method: str, path: str, headers: dict, body: bytes = b""):
        self.status, self.headers, self.ended, self.body = None, {}, False, body
        self.gone = asyncio.Event()
        path, _, query = path.partition("?")
        fields = {key.lower(): value for key, value in headers.items()} | {"content-length": str(len(body))}
        scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
                 "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
                 "query_string": query.encode(), "root_path": "", "client": ("127.0.0.1", 4000),
                 "server": ("127.0.0.1", 80), "headers": [(k.encode(), v.encode()) for k, v in fields.items()]}
        self.task = asyncio.create_task(app(scope, self.receive, self.send))

    async def receive(self):
        if self.body is not None:
            body, self.body = self.body, None
            return {"type": "http.request", "body": body, "more_body": False}
        await self.gone.wait()
        return {"type": "http.disconnect"}

    async def send(self, message):
        if message["type"] == "http.response.start":
            self.status = message["status"]
            self.headers = {name.decode().lower(): value.decode() for name, value in message["headers"]}
        elif not message.get("more_body", False):
            self.ended = True

    async def leave(self) -> None:
        self.gone.set()
        await asyncio.wait_for(self.task, PATIENCE)


async def until(done, patience: float = PATIENCE) -> bool:
    """Whether `done()` comes true within `patience` seconds."""
    give_up = time.monotonic() + patience
    while not done() and time.monotonic() < give_up:
        await asyncio.sleep(0.05)
    return done()


async def answered(*calls: Call) -> list[int]:
    await until(lambda: all(call.status is not None for call in calls))
    return [call.status for call in calls]


def basic(site: Site, username: str) -> dict:
    credentials = base64.b64encode(f"{username}:{site.passwords[username]}".encode()).decode()
    return {"Authorization": f"Basic {credentials}"}


def feed_url(site: Site) -> str:
    return f"/api/contests/{site.contest.id}/event-feed"


def test_an_api_feed_on_a_sessions_cookie_counts_in_its_streams_and_ends_with_it(tmp_path):
    site = Site(tmp_path)
    red = site.client("red")
    form = {"Cookie": "; ".join(f"{name}={value}" for name, value in red.cookies.items())}
    csrf = csrf_of(red.get("/problems").text)

    async def scenario():
        pages = [Call(site.app, "GET", "/events?submissions=0", form | {"Accept": "text/event-stream"})
                 for _ in range(2)]
        feeds = [Call(site.app, "GET", feed_url(site), form) for _ in range(2)]
        assert await answered(*pages, *feeds) == [200] * 4
        fifth = Call(site.app, "GET", feed_url(site), form)
        assert await answered(fifth) == [429]  # the session's fifth stream (before: 200, and 12 all open)
        logout = Call(site.app, "POST", "/logout", form | {"Content-Type": "application/x-www-form-urlencoded"},
                      f"csrf={csrf}".encode())
        assert await answered(logout) == [303]
        assert await until(lambda: all(call.ended for call in pages + feeds))  # (before: the feeds went on)
        for call in pages + feeds + [fifth, logout]:
            await call.leave()

    asyncio.run(scenario())


def test_a_teams_and_the_coachs_basic_feeds_are_capped(tmp_path):
    site = Site(tmp_path)

    async def scenario():
        reds = [Call(site.app, "GET", feed_url(site), basic(site, "red")) for _ in range(auth.STREAMS_PER_TEAM + 1)]
        statuses = await answered(*reds)
        assert sorted(statuses) == [200] * auth.STREAMS_PER_TEAM + [429]  # (before: 200 open at once)
        refused = reds[statuses.index(429)]
        assert refused.ended and int(refused.headers["retry-after"]) > 0
        blue = Call(site.app, "GET", feed_url(site), basic(site, "blue"))
        assert await answered(blue) == [200]  # another team's own
        await reds[statuses.index(200)].leave()
        again = Call(site.app, "GET", feed_url(site), basic(site, "red"))
        assert await answered(again) == [200]  # a place left is taken again
        coach = [Call(site.app, "GET", feed_url(site), basic(site, "coach")) for _ in range(auth.STREAMS_PER_COACH + 1)]
        assert sorted(await answered(*coach)) == [200] * auth.STREAMS_PER_COACH + [429]
        assert not any(call.ended for call in reds + coach + [blue, again] if call.status == 200)
        for call in reds + coach + [blue, again]:
            await call.leave()

    asyncio.run(scenario())


def test_a_basic_feed_ends_when_its_account_has_a_new_password(tmp_path, monkeypatch):
    """`judge accounts` (another process: nothing of the server is told) gives red a new password: its
    feed ends at its next look (at most RECHECKED seconds later), blue's goes on."""
    from tcjudge.serve.accounts import hasher

    site = Site(tmp_path)
    monkeypatch.setattr(auth, "RECHECKED", 0)

    async def scenario():
        red, blue = (Call(site.app, "GET", feed_url(site), basic(site, name)) for name in ("red", "blue"))
        assert await answered(red, blue) == [200, 200]
        await asyncio.to_thread(site.store.put_account, "red", "Red", "team", hasher().hash("a-new-password"))
        assert await until(lambda: red.ended)  # (before: it went on, and told the team's new verdicts)
        assert not blue.ended
        await red.leave()
        await blue.leave()

    asyncio.run(scenario())
