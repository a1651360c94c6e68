"""`judge serve` against what an attacker did to it (issue 47): each test is one finding, reproduced on
the real app in-process as the attacker did it by hand, and what must be true instead."""

from __future__ import annotations

import asyncio
import base64
import io
import json
import os
import stat
import struct
import time
import zipfile
from datetime import datetime, timedelta, timezone

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

from starlette.testclient import TestClient  # noqa: E402

from .test_serve import ACCEPTED, WRONG, Site, csrf_of, login, number_of, submit  # noqa: E402

MiB = 1024 * 1024


def api(site: Site) -> TestClient:
    return TestClient(site.app, base_url="http://127.0.0.1", raise_server_exceptions=False)


def submissions_url(site: Site) -> str:
    return f"/api/contests/{site.contest.id}/submissions"


def zipped(*files: tuple[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files:
            archive.writestr(name, data)
    return buffer.getvalue()


def body(archive: bytes, problem: str = "adder") -> dict:
    return {"problem_id": problem, "language_id": "python3", "files": [{"data": base64.b64encode(archive).decode()}]}


def feed(site: Site, username: str, since: str | None = None) -> tuple[int, str]:
    query = "?stream=false" + (f"&since_token={since}" if since is not None else "")
    response = api(site).get(f"/api/contests/{site.contest.id}/event-feed{query}",
                             auth=(username, site.passwords[username]))
    return response.status_code, response.text


def events(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


# 1. The freeze leaked through the event feed's tokens: they were the store's event ids, so a team
# counted the events it could not see (a run event per test: a verdict) by bisecting since_token or
# from the gaps between its own tokens.

def test_a_teams_event_feed_tells_nothing_of_the_events_it_does_not_see(tmp_path):
    site = Site(tmp_path, extra="show_failing_test: true\n")
    status, text = feed(site, "red")
    seen = events(text)
    assert status == 200 and [e["token"] for e in seen] == [str(n) for n in range(1, len(seen) + 1)]
    probes = [str(n) for n in range(len(seen) + 40)]
    answers = {token: feed(site, "red", token) for token in probes}
    blue = site.team("blue")
    for source in (ACCEPTED, WRONG):  # blue's submissions, judgements and runs: none of them red's to see
        site.grader.grade(site.store.add_submission(blue, "adder", "python3", "a.py", source, False, 60000))
    assert len(events(feed(site, "coach")[1])) >= len(seen) + 6  # (each: a submission, a judgement, runs)
    assert feed(site, "red") == (200, text)  # the same feed, tokens and all
    assert {token: feed(site, "red", token) for token in probes} == answers  # every token answered as before
    # red's own events continue its own tokens, with no gap where blue's were written
    site.grader.grade(number_of(submit(site.client("red"))))
    mine = events(feed(site, "red")[1])
    assert [e["token"] for e in mine] == [str(n) for n in range(1, len(mine) + 1)] and len(mine) > len(seen)
    assert events(feed(site, "red", str(len(seen)))[1]) == mine[len(seen):]
    # the coach's view is everything, its tokens its own too
    everything = events(feed(site, "coach")[1])
    assert [e["token"] for e in everything] == [str(n) for n in range(1, len(everything) + 1)]


# 2. The API took the session cookie with no CSRF defence: a text/plain POST with a JSON body, which
# any page on the same site (another port, a sibling subdomain) may send without asking, filed a
# submission in the victim's name.

def test_a_state_changing_request_on_a_session_cookie_needs_the_sessions_token(tmp_path):
    site = Site(tmp_path)
    red = site.client("red")
    red.headers["Sec-Fetch-Site"] = "same-origin"  # (what a browser says of the site's own requests)
    sent = json.dumps(body(zipped(("adder.py", ACCEPTED))))
    url = submissions_url(site)
    for headers in ({"Content-Type": "text/plain"}, {"Content-Type": "application/json"},
                    {"Content-Type": "application/json", "X-CSRF-Token": "guessed"}):
        response = red.post(url, content=sent, headers=headers)
        assert response.status_code in (403, 415) and "\n" not in response.json()["message"], headers
    assert site.store.rows("SELECT * FROM submissions") == []
    token = csrf_of(red.get("/submit").text)  # the session's own token, which only the site's pages hold
    assert red.post(url, content=sent, headers={"Content-Type": "application/json", "X-CSRF-Token": token}
                    ).status_code == 200
    # HTTP Basic, the API's documented way, needs no token; a body that is not JSON is refused all the same
    basic = ("blue", site.passwords["blue"])
    assert api(site).post(url, content=sent, headers={"Content-Type": "application/json"}, auth=basic).status_code == 200
    assert api(site).post(url, content=sent, headers={"Content-Type": "text/plain"}, auth=basic).status_code == 415
    assert len(site.store.rows("SELECT * FROM submissions")) == 2
    # a browser's own word that the request comes from another site (even the same site's other
    # origin): refused on every state-changing request, its token or not
    for where in ("same-site", "cross-site"):
        page = red.post("/submit", data={"csrf": token, "problem": "adder"}, files={"file": ("adder.py", ACCEPTED)},
                        headers={"Sec-Fetch-Site": where})
        assert page.status_code == 403, where
        assert red.post(url, content=sent, headers={"Content-Type": "application/json", "X-CSRF-Token": token,
                                                    "Sec-Fetch-Site": where}).status_code == 403
    assert len(site.store.rows("SELECT * FROM submissions")) == 2
    fresh = site.client()
    fresh.headers["Sec-Fetch-Site"] = "cross-site"
    assert login(fresh, "red", site.passwords["red"]).status_code == 403  # (a login planted from elsewhere)



# 3. Bodies were read whole before their limit was checked: a 128 MiB multipart upload to /login, with
# no account, was written to disk in full before its 403; a 128 MiB API body was held in memory before
# its 413.

def read_of(site: Site, method: str, path: str, headers: dict, chunks, declared: bool) -> tuple[int, int]:
    """(the answer's status, how many bytes of the body the server read) for a body sent as `chunks`,
    each one only when the server asks for it; `declared`: with its Content-Length (else chunked)."""
    chunks = list(chunks)
    total = sum(len(chunk) for chunk in chunks)
    given, status = 0, None
    sent = iter(chunks)

    async def receive():
        nonlocal given
        chunk = next(sent, None)
        if chunk is None:
            await asyncio.sleep(3600)  # (the client waits for the answer)
        given += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": given < total}

    async def send(message):
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    fields = {key.lower(): value for key, value in headers.items()} | ({"content-length": str(total)} if declared else {})
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "", "client": ("127.0.0.1", 4000),
             "server": ("127.0.0.1", 80), "headers": [(k.encode(), v.encode()) for k, v in fields.items()]}
    asyncio.run(site.app(scope, receive, send))
    return status, given


BLOCK = b"x" * (256 * 1024)  # one chunk, the same bytes each time: 16 MiB sent costs the test nothing to hold


def multipart(size: int) -> list[bytes]:
    head = (b'--B\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n'
            b"Content-Type: application/octet-stream\r\n\r\n")
    return [head] + [BLOCK] * (size // len(BLOCK)) + [b"\r\n--B--\r\n"]


def json_body(size: int) -> list[bytes]:
    return [b'{"problem_id": "adder", "language_id": "python3", "files": [{"data": "'] + \
        [b"A" * len(BLOCK)] * (size // len(BLOCK)) + [b'"}]}']


@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "chunked"])
def test_a_body_over_its_limit_is_refused_as_it_arrives(tmp_path, declared):
    site = Site(tmp_path)
    form = {"Content-Type": "multipart/form-data; boundary=B"}
    status, read = read_of(site, "POST", "/login", form, multipart(16 * MiB), declared)
    assert status == 413 and read <= (0 if declared else 64 * 1024 + len(BLOCK)), (status, read)
    credentials = base64.b64encode(f"red:{site.passwords['red']}".encode()).decode()
    basic = {"Authorization": f"Basic {credentials}", "Content-Type": "application/json"}
    status, read = read_of(site, "POST", submissions_url(site), basic, json_body(16 * MiB), declared)
    assert status == 413 and read <= (0 if declared else 2 * 64 * 1024 + 4096 + len(BLOCK)), (status, read)
    # who is asking comes first: nothing is read for a caller refused
    assert read_of(site, "POST", "/submit", form, multipart(16 * MiB), declared) == (303, 0)  # not logged in
    wrong = basic | {"Authorization": "Basic " + base64.b64encode(b"red:wrong").decode()}
    assert read_of(site, "POST", submissions_url(site), wrong, json_body(16 * MiB), declared) == (401, 0)
    assert site.store.rows("SELECT * FROM submissions") == []


# 4. Anyone could lock a team or the coach out: five wrong passwords for an account, and its owner's
# right one was 429 for 15 minutes, renewable; behind a reverse proxy that passes no client address,
# twenty failures locked everyone out.

def test_a_third_partys_wrong_passwords_lock_no_one_out(tmp_path, monkeypatch):
    from tcjudge.serve import auth

    monkeypatch.setattr(auth, "FIRST_DELAY", 0.001)  # (the delays' rule, at a test's scale)
    monkeypatch.setattr(auth, "MOST_DELAY", 0.004)
    site = Site(tmp_path)
    guesser = site.client()  # every test client has one address: as behind a proxy that passes none
    for _ in range(8):
        assert login(guesser, "red", "guess").status_code == 401
        assert login(guesser, "coach", "guess").status_code == 401
    assert login(site.client(), "red", site.passwords["red"]).status_code == 303  # the owner, at once after
    assert login(site.client(), "coach", site.passwords["coach"]).status_code == 303
    account = f"/api/contests/{site.contest.id}/account"
    assert api(site).get(account, auth=("red", site.passwords["red"])).status_code == 200
    for number in range(25):  # one address guessing many accounts
        assert login(guesser, f"nobody{number}", "guess").status_code == 401
    assert login(site.client(), "blue", site.passwords["blue"]).status_code == 303
    # the guesser is slowed instead: past 5 failures on an account (20 from an address) each attempt
    # waits before its check, twice as long per failure, up to a bound; for the right password too
    checker = auth.Auth(site.store)
    waits = []
    for _ in range(9):
        waits.append(checker.delay("green", "10.0.0.1"))
        assert asyncio.run(checker.check_password("green", "guess", "10.0.0.1")) is None
    assert waits == [0, 0, 0, 0, 0, 0.001, 0.002, 0.004, 0.004]
    assert checker.delay("green", "10.0.0.2") == 0.004 and checker.delay("red", "10.0.0.1") == 0


# 5. A zip member named with backslashes (`..\..\x.py`) was stored, and reached the coach's export as
# such: a zip slip on the coach's machine for an extractor that takes `\` for a separator.

def test_a_name_with_backslashes_is_refused_in_a_zip_and_cut_to_its_last_part_as_an_upload(tmp_path):
    site = Site(tmp_path)
    red = site.client("red")
    for name in ("..\\..\\x.py", "sub\\adder.py", "adder.py\\"):
        response = api(site).post(submissions_url(site), json=body(zipped((name, ACCEPTED))),
                                  auth=("red", site.passwords["red"]))
        assert response.status_code == 400 and "plain" in response.json()["message"], (name, response.text)
        assert submit(red, source=zipped((name, ACCEPTED)), name="adder.zip").status_code == 400
    assert site.store.rows("SELECT * FROM submissions") == []
    number = number_of(submit(red, name="..\\..\\adder.py"))  # (a browser that sends a path)
    assert site.store.submission(number)["filename"] == "adder.py"
    # one stored before this rule: the export holds no such name, the coach's page says why
    old = site.store.add_submission(site.team("red"), "adder", "python3", "files.zip",
                                    zipped(("..\\..\\x.py", ACCEPTED)), True, 60000)
    coach = site.client("coach")
    with zipfile.ZipFile(io.BytesIO(coach.get("/coach/export.zip").content)) as package:
        assert not [name for name in package.namelist() if "\\" in name or ".." in name]
        assert f"submissions/{number}/files/adder.py" in package.namelist()
    page = coach.get(f"/submissions/{old}")
    assert page.status_code == 400 and "plain" in page.text


# 6. Unhandled input was a 500 and a traceback in the log: JSON nested 100,000 deep, a zip whose headers
# lie about a member's size, ids beyond 64 bits, an id of Unicode digits.

def lying(archive: bytes, size: int) -> bytes:
    """`archive` (one member) with `size` as its member's size, in its local header and the directory."""
    data = bytearray(archive)
    for signature, at in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        start = data.find(signature)
        data[start + at:start + at + 4] = struct.pack("<I", size)
    return bytes(data)


def test_hostile_input_is_a_4xx_with_its_reason_never_a_traceback(tmp_path, capfd):
    site = Site(tmp_path)
    basic = ("red", site.passwords["red"])
    url, cid = submissions_url(site), site.contest.id
    answers = [api(site).post(url, content="[" * depth + "]" * depth, auth=basic,
                              headers={"Content-Type": "application/json"}) for depth in (100000, 60000)]
    assert answers[1].status_code == 400  # (within the body's limit: parsed, and too deep)
    for archive in (lying(zipped(("adder.py", ACCEPTED)), 10), lying(zipped(("adder.py", ACCEPTED)), 0),
                    zipped(("adder.py", ACCEPTED))[:-30]):  # (and one cut short)
        answers.append(api(site).post(url, json=body(archive), auth=basic))
        answers.append(submit(site.client("red"), source=archive, name="adder.zip"))
    huge, unicode = str(2 ** 70), "\u00b2"
    for number in (huge, unicode, "\u0663"):  # (² and the Arabic-Indic digit 3)
        answers.append(api(site).get(f"{url}/{number}/files", auth=basic))
        answers.append(api(site).get(f"/api/contests/{cid}/event-feed?stream=false&since_token={number}", auth=basic))
    coach = site.client("coach")
    coach.headers["Sec-Fetch-Site"] = "same-origin"
    answers.append(coach.get(f"/submissions/{huge}"))
    token = csrf_of(coach.get("/submissions").text)
    for field in ("submission", "team"):
        for number in (huge, "\u0663"):
            answers.append(coach.post("/coach/rejudge", data={"csrf": token, field: number}))
    answers.append(coach.post("/clarifications", data={"csrf": token, "text": "hi", "reply_to": huge}))
    for answer in answers:
        assert 400 <= answer.status_code < 500, (answer.request.url, answer.status_code, answer.text[:300])
        reason = answer.json()["message"] if answer.request.url.path.startswith("/api") else answer.text
        assert reason.strip() and "Traceback" not in reason
        if answer.request.url.path.startswith("/api"):
            assert "\n" not in reason
    assert "Traceback" not in capfd.readouterr().err
    assert site.store.rows("SELECT * FROM submissions") == []


# 7. The store (every source and password hash), its write-ahead log and the run history were
# world-readable (644) on a shared machine.

def test_the_store_its_log_and_the_run_history_are_their_owners_alone(tmp_path):
    before = os.umask(0o022)
    try:
        older = tmp_path / "older" / "contest.sqlite"  # one made before, world-readable
        older.parent.mkdir()
        older.write_bytes(b"")
        older.chmod(0o644)
        site = Site(tmp_path)
        site.grader.grade(number_of(submit(site.client("red"))))
        made = [tmp_path / f"{stem}.sqlite{suffix}" for stem in ("contest", "history") for suffix in ("", "-wal", "-shm")]
        assert all(path.exists() for path in made[:4]), [path.name for path in made if not path.exists()]
        from tcjudge.serve.store import Store

        Store(older).close()
        modes = {path.name: oct(stat.S_IMODE(path.stat().st_mode)) for path in made + [older] if path.exists()}
        assert set(modes.values()) == {"0o600"}, modes
    finally:
        os.umask(before)


# 8. An empty file inside a zip was accepted as a submission.

def test_an_empty_file_in_a_zip_is_refused_as_an_empty_upload_is(tmp_path):
    site = Site(tmp_path)
    red = site.client("red")
    assert submit(red, source=b"").status_code == 400
    for content in (b"", b" \n\n"):
        response = api(site).post(submissions_url(site), json=body(zipped(("adder.py", content))),
                                  auth=("red", site.passwords["red"]))
        assert response.status_code == 400 and "empty" in response.json()["message"], response.text
        page = submit(red, source=zipped(("adder.py", content)), name="adder.zip")
        assert page.status_code == 400 and "empty" in page.text
    assert site.store.rows("SELECT * FROM submissions") == []


# 1, by the pages: the scoreboard page's live stream said "board" at every change the grader counted
# (every test of every team), with the counter as its data: in the freeze, a team learnt when other
# teams' hidden gradings ran, how long each took (a WA stops at its first failing test), and how many
# tests ran.

def test_a_teams_scoreboard_stream_says_nothing_of_hidden_gradings(tmp_path):
    site = Site(tmp_path, start=datetime.now(timezone.utc) - timedelta(minutes=100))  # frozen since minute 90
    red = site.client("red")
    shown = site.serve.board_digest(False)
    hidden = site.store.add_submission(site.team("blue"), "adder", "python3", "a.py", ACCEPTED, False, 95 * 60000)
    site.grader.wake(site.team("blue"))
    pending = site.serve.board_digest(False)  # (a pending attempt is on the frozen board: it shows)
    with red.stream("GET", "/events?board=1") as stream:
        lines = stream.iter_lines()
        first = next(line for line in lines if line.startswith("data:"))
        assert first == f"data: {pending}" and pending != shown  # the board's digest, never the grader's counter
        version = site.grader.version
        site.grader.grade(hidden)  # its tests move the grader's counter; the frozen board does not move
        assert site.grader.version > version and site.serve.board_digest(False) == pending
        time.sleep(3)  # (what the stream would have said of it, it would have said by now: it looks every 0.5 s)
        coach = site.client("coach")
        coach.post("/coach/freeze", data={"csrf": csrf_of(coach.get("/scoreboard").text), "action": "unfreeze"})
        thawed = site.serve.board_digest(False)
        assert thawed != pending
        assert next(line for line in lines if line.startswith("data:")) == f"data: {thawed}"  # the next it says
