"""`judge serve` over HTTP against what an attacker found (issue 47, breaker 47): connections that send
nothing, or their headers a line at a time, were kept as long as they stayed, and enough of them took
every file the server may open; the session's cookie was shared by every port of the host; the pages
of a session stayed in the browser's cache after logging out; /favicon.ico was 404; a paste over the
source limit and its form's 64 KiB was a bare 413 page. The connections' tests run a real server
(tests/test_serve_server.py's), at a test's scale (--connections 10, --header-timeout 1); the others
the app in-process."""

from __future__ import annotations

import asyncio
import socket
import struct
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from tcjudge.serve.auth import SESSION_COOKIE  # noqa: E402
from tcjudge.serve.server import ACCEPT_FAILED, Connections  # noqa: E402

from .test_serve import Site, csrf_of, login  # noqa: E402
from .test_serve_server import server  # noqa: E402,F401  (the fixture)

PATIENCE = 120  # seconds a test waits for what the server does on its own before it fails (a busy machine)


def closed(sockets: list[socket.socket], line: bytes = b"") -> int:
    """How many of `sockets` the server closes, sending `line` on those still open now and then (a slow
    client's next header line), until it has closed them all or PATIENCE is over."""
    waiting = list(sockets)
    give_up = time.monotonic() + PATIENCE
    while waiting and time.monotonic() < give_up:
        time.sleep(0.2)
        for connection in list(waiting):
            try:
                if line:
                    connection.sendall(line)
                connection.setblocking(False)
                if connection.recv(65536) == b"":
                    waiting.remove(connection)
            except BlockingIOError:
                pass
            except OSError:  # (reset, or a broken pipe)
                waiting.remove(connection)
    return len(sockets) - len(waiting)


def page(url: str) -> int:
    """GET `url` as a browser would, a new connection each time until an answer (PATIENCE at most)."""
    give_up = time.monotonic() + PATIENCE
    while True:
        try:
            return httpx.get(url, timeout=30).status_code
        except httpx.TransportError:
            if time.monotonic() > give_up:
                raise
            time.sleep(0.2)


# 1. Connections: a slow request's headers, a connection that sends nothing, more connections than the
# server keeps.

def test_slow_and_idle_connections_are_closed_and_the_server_keeps_answering(server):
    server.start("-j", "1", "--connections", "10", "--connections-per-address", "10", "--header-timeout", "1")
    where = ("127.0.0.1", server.port)
    slow = [socket.create_connection(where) for _ in range(6)]
    for connection in slow:
        connection.sendall(b"GET /login HTTP/1.1\r\nHost: x\r\n")
    assert closed(slow, b"X-a: b\r\n") == 6  # (before: a header line each 10 s kept them for good)
    idle = [socket.create_connection(where) for _ in range(16)]  # past the 10: the longest idle make room
    assert page(f"{server.url}/login") == 200
    assert closed(idle) == 16  # (before: kept, 300 of them, after 90 s)
    teams = [httpx.Client(base_url=server.url) for _ in range(3)]  # (a session keeps at most four streams)
    for client, team in zip(teams, ("red", "blue", "green")):
        assert login(client, team, server.passwords[team]).status_code == 303
    streams = [stream_of(server, teams[number % 3].cookies) for number in range(10)]  # ten requests under way: full
    refused = socket.create_connection(where)
    refused.settimeout(PATIENCE)
    assert refused.recv(12) == b"HTTP/1.1 503"  # an answer, not a connection that hangs
    streams.pop().close()
    assert page(f"{server.url}/login") == 200
    for connection in streams + slow + idle + [refused]:
        connection.close()
    log = server.log.read_text()
    assert "Traceback" not in log and log.count("the longest idle one is closed") == 1, log  # a line a minute


def test_a_failed_accept_is_a_line_a_minute_never_a_traceback(capfd, caplog):
    """Out of open files, asyncio's loop said each failed accept with its traceback, 188,000 of them in
    20 s (76 MB of log); its handler is Connections.loop_error now."""
    loop = asyncio.new_event_loop()
    try:
        loop.set_exception_handler(Connections(10, 1.0).loop_error)
        for _ in range(1000):
            loop.call_exception_handler({"message": ACCEPT_FAILED, "exception": OSError(24, "Too many open files")})
        said = capfd.readouterr().err
        assert said.count("\n") == 1 and "Too many open files" in said and "Traceback" not in said, said
        assert not caplog.records  # (asyncio's logger: a record with its traceback each, before)
        loop.call_exception_handler({"message": "something else", "exception": ValueError("other")})
        assert [record.message for record in caplog.records] == ["something else"]  # (the loop's own handler)
    finally:
        loop.close()


def test_the_connections_leave_room_under_the_open_file_limit(monkeypatch, capsys):
    """The server stays under the limit of open files, where accepting failed."""
    import resource

    from tcjudge.serve import server as served

    monkeypatch.setattr(resource, "getrlimit", lambda which: (1024, 4096))
    assert served.most_connections(None) == 1024 - served.FILES_KEPT and not capsys.readouterr().err
    assert served.most_connections(5000) == 1024 - served.FILES_KEPT
    assert "at most 768 connections at once: the process may open 1024 files" in capsys.readouterr().err
    assert served.most_connections(300) == 300
    monkeypatch.setattr(resource, "getrlimit", lambda which: (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    assert served.most_connections(None) == served.CONNECTIONS


# 2. The session's cookie was judge_session for every contest: a browser keeps cookies per host, not per
# port, so logging into a second contest on another port of the host logged it out of the first.

def two_ports(first: Site, second: Site):
    """An ASGI app that is `first` on port 8765 and `second` on 8766, as two servers on one host."""
    async def app(scope, receive, send):
        await (first.app if scope["server"][1] == 8765 else second.app)(scope, receive, send)

    return app


def test_two_contests_on_one_host_each_keep_their_session(tmp_path):
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    first, second = Site(tmp_path / "one"), Site(tmp_path / "two")
    browser = TestClient(two_ports(first, second), base_url="http://127.0.0.1:8765", follow_redirects=False)
    other = "http://127.0.0.1:8766"
    assert login(browser, "red", first.passwords["red"]).status_code == 303
    token = csrf_of(browser.get(f"{other}/login").text)
    assert browser.post(f"{other}/login", data={"csrf": token, "username": "red",
                                                "password": second.passwords["red"]}).status_code == 303
    assert browser.get("/problems").status_code == 200  # (before: 303, to log in again)
    assert browser.get(f"{other}/problems").status_code == 200
    tokens = [csrf_of(browser.get(f"{base}/login").text) for base in ("", other)]  # a login page open in each
    assert browser.post("/login", data={"csrf": tokens[0], "username": "blue",
                                        "password": first.passwords["blue"]}).status_code == 303  # (before: 403)


def test_over_https_the_session_cookie_is_the_hosts_alone(tmp_path):
    site = Site(tmp_path)
    secure = TestClient(site.app, base_url="https://127.0.0.1", follow_redirects=False)
    cookies = login(secure, "red", site.passwords["red"]).headers.get_list("set-cookie")
    session = next(cookie for cookie in cookies if cookie.startswith(f"__Host-{SESSION_COOKIE}-"))
    assert "secure" in session.lower() and "path=/" in session.lower() and "domain" not in session.lower()
    assert secure.get("/problems").status_code == 200
    ended = secure.post("/logout", data={"csrf": csrf_of(secure.get("/problems").text)}).headers.get_list("set-cookie")
    assert any(cookie.startswith(f"__Host-{SESSION_COOKIE}-") and "secure" in cookie.lower() for cookie in ended)
    assert secure.get("/problems").status_code == 303


# 3. No answer said Cache-Control: after logging out on a shared PC, the Back button showed the team's
# pages from the browser's cache; and a page's event stream, after logging out, got the login page's HTML.

def test_no_page_is_kept_by_the_browser_and_a_stream_after_logging_out_ends(tmp_path):
    site = Site(tmp_path)
    red = site.client("red")
    for path in ("/problems", "/problems/adder", "/submit", "/submissions", "/scoreboard", "/clarifications"):
        assert red.get(path).headers.get("cache-control") == "no-store", path
    assert site.client().get("/login").headers.get("cache-control") == "no-store"
    assert "no-store" not in red.get("/static/judge.css").headers.get("cache-control", "")  # the same for all
    red.post("/logout", data={"csrf": csrf_of(red.get("/problems").text)})
    ended = red.get("/events", headers={"Accept": "text/event-stream"})  # as an EventSource asks
    assert ended.status_code == 204 and ended.content == b""  # (before: 303 to the login page)
    assert red.get("/problems").status_code == 303  # a page still goes to the login page


# 4. /favicon.ico was 404: an error in the browser's console on every session's first page.

def test_the_site_has_an_icon(tmp_path):
    icon = Site(tmp_path).client().get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/x-icon"
    assert struct.unpack_from("<HHHBB", icon.content) == (0, 1, 1, 16, 16)  # an .ico of one 16x16 image
    size, offset = struct.unpack_from("<II", icon.content, 14)
    assert offset + size == len(icon.content)


# 5. A paste over the source limit and its form's 64 KiB was a bare 413 page: the form was gone.

def test_a_paste_over_the_bodys_limit_is_the_submit_page_saying_the_limit(tmp_path):
    site = Site(tmp_path)  # (a source limit of 64 KiB: the body's is 128 KiB)
    red = site.client("red")
    token = csrf_of(red.get("/submit").text)
    answer = red.post("/submit", data={"csrf": token, "problem": "adder", "filename": "big.py",
                                       "source": "#" * 140 * 1024}, files={"file": ("", b"")})
    assert answer.status_code == 413 and 'id="source"' in answer.text, answer.text[:300]
    assert "over the limit: a source of at most 64 KiB" in answer.text
    assert site.store.rows("SELECT * FROM submissions") == []


# 5. Breaker 47b: a request's body a byte every 5 s (or a Content-Length and no body) held its connection,
# and 1002 of them from one address held every place; a team's 1002 event streams did too, and a stream
# outlived its session; each request of a client could be a warning in the log; uvicorn believed
# X-Forwarded-For from 127.0.0.1, so any process of the judge's host could be any address to the throttle.

def stalled_login() -> bytes:
    return b"POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\na"


def still_open(connection: socket.socket) -> bool:
    """Whether the server has not closed `connection` (what it sent meanwhile is read and dropped)."""
    connection.setblocking(False)
    try:
        while True:
            if connection.recv(65536) == b"":
                return False
    except BlockingIOError:
        return True
    except OSError:
        return False


def test_a_slow_body_is_closed_and_one_address_leaves_room_for_the_others(server):
    server.start("-j", "1", "--connections", "10", "--connections-per-address", "5", "--header-timeout", "1")
    where = ("127.0.0.1", server.port)
    kept = socket.create_connection(where, source_address=("127.0.0.3", 0))  # a request answered: idle, kept alive (75 s) for the next one
    kept.sendall(b"GET /login HTTP/1.1\r\nHost: x\r\n\r\n")
    kept.settimeout(PATIENCE)
    assert kept.recv(12) == b"HTTP/1.1 200"
    stalled = [socket.create_connection(where) for _ in range(10)]
    for connection in stalled:
        connection.sendall(stalled_login())
    other = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"), timeout=30)
    assert other.get(f"{server.url}/login").status_code == 200  # another address (before: 503, all ten held)
    assert closed(stalled, b"a") == 10  # five refused, five past their body's time (before: kept for good)
    no_body = socket.create_connection(where)
    no_body.sendall(b"GET /login HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
    no_body.settimeout(PATIENCE)
    assert no_body.recv(12) == b"HTTP/1.1 200"
    assert closed([no_body]) == 1 and still_open(kept)  # (before: both kept 75 s, the body never sent)
    kept.close()
    log = server.log.read_text()
    assert "Traceback" not in log and log.count("(--connections-per-address)") <= 1, log


def test_two_addresses_with_every_place_under_way_leave_room_for_a_third(server):
    """Breaker 54a F2: one team's uploads trickled from two addresses held all the places (each address
    its half), and everyone else got 503 for as long as they went on. With every place a request under
    way, a newcomer from another address takes one from the address that holds the most."""
    server.start("-j", "1", "--connections", "10", "--connections-per-address", "5", "--header-timeout", "60")
    where = ("127.0.0.1", server.port)
    stalled = [socket.create_connection(where, source_address=(f"127.0.0.{2 + number % 2}", 0)) for number in range(10)]
    for connection in stalled:
        connection.sendall(stalled_login())  # (a body under way: 60 s to come)
    time.sleep(1)
    third = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.4"), timeout=30)
    assert third.get(f"{server.url}/login").status_code == 200  # (before: 503)
    assert sum(not still_open(connection) for connection in stalled) == 1  # (the others' bodies still to come)
    for connection in stalled:
        connection.close()
    log = server.log.read_text()
    assert "Traceback" not in log and "one of the address with the most is closed" in log, log


@pytest.mark.parametrize("attackers, newcomer", [
    ("127.0.5.{}", "127.0.6.1"),  # breaker 54d F2: 110 addresses of 127.0/16, one upload each
    ("127.10.{}.1", "127.1.0.99"),  # breaker 54f F2: 100 /24s of one /16, one upload each
])
def test_many_addresses_of_one_network_with_every_place_under_way_leave_room_for_another(server, attackers, newcomer):
    """One trickled upload from each of many addresses of one network held every place (no one address, then
    no one /24, held more than the newcomer's would): the places are shared between networks, widest first."""
    server.start("-j", "1", "--connections", "10", "--header-timeout", "60")
    where = ("127.0.0.1", server.port)
    stalled = [socket.create_connection(where, source_address=(attackers.format(2 + number), 0)) for number in range(10)]
    for connection in stalled:
        connection.sendall(stalled_login())
    time.sleep(1)
    other = httpx.Client(transport=httpx.HTTPTransport(local_address=newcomer), timeout=30)
    assert other.get(f"{server.url}/login").status_code == 200  # (before: 503)
    for connection in stalled:
        connection.close()


def test_networks_are_widest_first_down_to_the_address():
    from tcjudge.serve.server import networks_of

    assert [text for _, text in networks_of("127.10.5.7")] == ["127.0.0.0/8", "127.10.0.0/16", "127.10.5.0/24",
                                                                "127.10.5.7/32"]
    assert [text for _, text in networks_of("2001:db8:1:2::5")][:2] == ["2001:db8::/32", "2001:db8:1::/48"]
    assert networks_of("::ffff:10.1.2.3") == networks_of("10.1.2.3") and networks_of("testclient")[0] == (0, "testclient")


def stream_of(server, cookies: httpx.Cookies) -> socket.socket:
    """A page's event stream, opened with the session's cookie (its answer's head read)."""
    connection = socket.create_connection(("127.0.0.1", server.port))
    cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
    connection.sendall(f"GET /events?submissions=0 HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n"
                       f"Cookie: {cookie}\r\n\r\n".encode())
    connection.settimeout(PATIENCE)
    assert connection.recv(12) == b"HTTP/1.1 200"
    return connection


def ended(streams: list[socket.socket], patience: float = PATIENCE) -> int:
    """How many of `streams` end (their answer's last chunk, or the connection closed) within `patience`."""
    seen = {connection: b"" for connection in streams}
    give_up = time.monotonic() + patience
    while seen:
        time.sleep(0.2)
        for connection in list(seen):
            connection.setblocking(False)
            try:
                data = connection.recv(65536)
            except BlockingIOError:
                continue
            seen[connection] += data
            if data == b"" or seen[connection].endswith(b"\r\n0\r\n\r\n"):
                del seen[connection]
        if time.monotonic() > give_up:
            break
    return len(streams) - len(seen)


def session(server) -> httpx.Client:
    client = httpx.Client(base_url=server.url, timeout=30)
    assert login(client, "red", server.passwords["red"]).status_code == 303
    return client


def test_a_sessions_streams_are_few_and_end_with_the_session(server):
    server.start("-j", "1")
    first = session(server)
    mine = [stream_of(server, first.cookies) for _ in range(5)]
    assert ended(mine[:1]) == 1  # a fifth stream of the session ends its oldest (before: all held)
    second = session(server)
    theirs = [stream_of(server, second.cookies) for _ in range(4)]  # the team's eighth
    third = stream_of(server, session(server).cookies)
    assert ended(mine[1:2]) == 1  # a ninth of the team's ends the team's oldest
    second.post("/logout", data={"csrf": csrf_of(second.get("/problems").text)})
    assert ended(theirs) == 4  # (before: they kept pushing the team's submissions)
    assert ended(mine[2:] + [third], patience=1) == 0  # the others go on


def test_a_clients_warnings_are_a_line_a_minute(server):
    server.start("-j", "1")
    for _ in range(3):  # a client that goes away while its login's body is read
        connection = socket.create_connection(("127.0.0.1", server.port))
        connection.sendall(stalled_login())
        time.sleep(0.5)
        connection.close()
    for request in (b"NOT HTTP AT ALL\r\n\r\n", b"GET /login HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\n"
                    b"Upgrade: h2c\r\n\r\n") * 3:
        connection = socket.create_connection(("127.0.0.1", server.port))
        connection.sendall(request)
        connection.settimeout(PATIENCE)
        assert connection.recv(12).startswith(b"HTTP/1.1")
        connection.close()
    give_up = time.monotonic() + PATIENCE
    while "went away" not in server.log.read_text() and time.monotonic() < give_up:
        time.sleep(0.2)
    log = server.log.read_text()
    for line in ("a client went away during POST /login", "Invalid HTTP request received",
                 "Unsupported upgrade request"):
        assert log.count(line) == 1, log  # (before: one each request)


def test_forwarded_addresses_are_believed_only_from_the_proxies_named():
    import argparse
    import logging

    from tcjudge.serve.server import HEADER_TIMEOUT, uvicorn_config

    seen = []

    async def probe(scope, receive, send):
        seen.append(scope["client"][0])

    scope = {"type": "http", "scheme": "http", "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000),
             "path": "/", "method": "GET", "headers": [(b"x-forwarded-for", b"203.0.113.9")]}
    for allowed in (None, "127.0.0.1"):
        options = argparse.Namespace(host="127.0.0.1", port=0, forwarded_allow_ips=allowed)
        config = uvicorn_config(options, probe, Connections(10, HEADER_TIMEOUT))
        for added in logging.getLogger("uvicorn.error").filters[-1:]:
            logging.getLogger("uvicorn.error").removeFilter(added)
        config.load()
        asyncio.run(config.loaded_app(dict(scope), None, None))
    assert seen == ["127.0.0.1", "203.0.113.9"]  # (before: 203.0.113.9 from 127.0.0.1 by default)


def test_a_new_password_ends_the_sessions_streams(tmp_path, monkeypatch):
    """A new password (`judge accounts`, from another process: nothing of the server is told) ends the
    account's streams at their next look (at most RECHECKED seconds later)."""
    from tcjudge.serve import auth

    site = Site(tmp_path)
    account = site.store.account("red")
    token = site.serve.auth.new_session(auth.Caller("red", "team", account["team_id"]))
    stream = site.serve.auth.streaming(token, site.serve.auth.from_session(token))
    monkeypatch.setattr(auth, "RECHECKED", 0)
    assert asyncio.run(stream.going())
    site.store.put_account("red", "Red", "team", account["hash"])
    assert not asyncio.run(stream.going())  # (before: no stream knew of its session)
