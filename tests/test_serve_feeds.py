"""`judge serve`'s long-lived streams, whatever opens them (breaker 47c): the CLICS API's event feed on a
session's cookie outlived logging out and was counted in no cap (12 on one session, all open), one
team's feeds with HTTP Basic were capped by nothing (200 at once from two addresses filled
--connections), and a Basic feed went on after `judge accounts` gave its account a new password; six
tabs of a session ended each other's page streams without end; a team's feed open across the start
never had the problems; a team added while the server ran was announced after the feed's end.
Each request runs on the real app in-process, as an ASGI call whose client stays until it leaves."""

from __future__ import annotations

import asyncio
import base64
import json
import time
from datetime import datetime, timedelta, timezone

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

from starlette.testclient import TestClient  # noqa: E402

from tcjudge.errors import JudgeInputError  # noqa: E402
from tcjudge.serve import auth  # noqa: E402
from tcjudge.serve.accounts import make_accounts  # noqa: E402
from tcjudge.serve.api import announce  # noqa: E402

from .test_serve import Site, csrf_of, number_of, submit  # noqa: E402

PATIENCE = 120  # seconds a test waits for what the server does on its own before it fails (a busy machine)


class Call:
    """One request in flight on the app: its status, what it was sent, whether its answer ended; its
    client stays connected until `leave`."""

    def __init__(self, app, method: str, path: str, headers: dict, body: bytes = b""):
        self.status, self.headers, self.ended, self.body, self.text = None, {}, False, body, ""
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
        else:
            self.text += message.get("body", b"").decode()
            self.ended = self.ended or not message.get("more_body", False)

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


def test_a_page_stream_ended_for_a_newer_one_is_told_so(tmp_path):
    """A fifth tab of a session ends the oldest page's stream, which says "crowded" first: its page
    then opens no other until it is looked at (static/judge.js), where it reconnected at once and
    ended the next oldest (breaker 47c F6: 27 requests in 40 s with six tabs)."""
    site = Site(tmp_path)
    red = site.client("red")
    form = {"Cookie": "; ".join(f"{name}={value}" for name, value in red.cookies.items()),
            "Accept": "text/event-stream"}

    async def scenario():
        tabs = []
        for _ in range(auth.STREAMS_PER_SESSION):  # (one after another: the first is the oldest)
            tabs.append(Call(site.app, "GET", "/events", form))
            assert await until(lambda: "event: submissions" in tabs[-1].text)
        fifth = Call(site.app, "GET", "/events", form)
        assert await answered(fifth) == [200]
        assert await until(lambda: tabs[0].ended)
        assert "event: crowded" in tabs[0].text  # (before: it ended saying nothing, and its page reconnected)
        assert not any(tab.ended or "crowded" in tab.text for tab in tabs[1:] + [fifth])
        for call in tabs + [fifth]:
            await call.leave()
        assert not any("crowded" in tab.text for tab in tabs[1:] + [fifth])  # (a client gone: nothing said)

    asyncio.run(scenario())


def feed_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_a_teams_feed_open_across_the_start_is_given_the_problems_there(tmp_path):
    site = Site(tmp_path, start=datetime.now(timezone.utc) + timedelta(hours=1))

    async def scenario():
        red = Call(site.app, "GET", feed_url(site), basic(site, "red"))
        assert await answered(red) == [200]
        assert await until(lambda: '"type":"state"' in red.text)
        assert '"type":"problems"' not in red.text
        site.serve.clock.start = time.time() - 1  # the contest starts
        assert await until(lambda: '"type":"problems"' in red.text)  # (before: never, on this feed)
        assert await until(lambda: '"started":"' in red.text)
        await red.leave()
        return feed_lines(red.text)

    seen = asyncio.run(scenario())
    kinds = [event["type"] for event in seen]
    assert kinds.index("problems") < max(i for i, kind in enumerate(kinds) if kind == "state")  # the problems, then the state
    later = TestClient(site.app).get(feed_url(site) + "?stream=false", auth=("red", site.passwords["red"]))
    assert feed_lines(later.text)[:len(seen)] == seen  # a feed opened later: the same events at the same tokens


def test_a_submission_at_the_start_follows_the_problems_and_the_start_in_the_feed(tmp_path):
    """No feed is open at the start, so none has looked at the clock: the submission is stored after
    the problems and the state that says `started` (before: the problems came at a feed's first look,
    after the submission that names one)."""
    site = Site(tmp_path, start=datetime.now(timezone.utc) + timedelta(hours=1))
    site.serve.clock.start = time.time() - 1  # the contest starts
    number = number_of(submit(site.client("red")))
    places = [(event["type"], event["id"]) for event in feed_lines(
        TestClient(site.app).get(feed_url(site) + "?stream=false", auth=("coach", site.passwords["coach"])).text)]
    started = max(i for i, (kind, _) in enumerate(places) if kind == "state")
    assert places.index(("problems", "adder")) < started < places.index(("submissions", str(number)))


def test_a_team_added_is_announced_as_it_is_made_and_nothing_follows_the_end_of_updates(tmp_path):
    site = Site(tmp_path)
    make_accounts(site.store, [("Green", "green")], coach=False)  # `judge accounts` while the server runs
    green = site.store.account("green")["team_id"]
    number = site.store.add_submission(green, "adder", "python3", "a.py", b"print(3)\n", False, 60000)
    site.store.record_judgement(number, time.time(), "AC", None, 1.0, "", [])
    site.serve.clock.end = time.time() - 1
    site.serve.clock.finalize()  # (as the coach's finalize does)
    announce(site.serve, force=True)
    for username in ("coach", "red"):
        seen = feed_lines(TestClient(site.app).get(feed_url(site) + "?stream=false",
                                                   auth=(username, site.passwords[username])).text)
        places = [(event["type"], event["id"]) for event in seen]
        assert places.count(("teams", str(green))) == 1  # (announced once: the server does not again)
        if username == "coach":  # (before: the team's event came after its submission's)
            assert places.index(("teams", str(green))) < places.index(("submissions", str(number)))
        assert seen[-1]["type"] == "state" and seen[-1]["data"]["end_of_updates"]  # (before: the team's event after it)
    with pytest.raises(JudgeInputError, match="finalized"):
        make_accounts(site.store, [("Yellow", "yellow")], coach=False)
    make_accounts(site.store, [("Green", "green")], coach=False)  # (a new password: no team added)
