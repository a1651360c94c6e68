"""`judge serve` and a HEAD request (breaker 47c): Starlette routes HEAD to a GET route, and /submit and
/login took every method but GET for their form's POST, while the body cap (app.Bounded) and the
cross-site refusal (app.FromThisSite) let HEAD through unchecked: a HEAD stored a submission that a
browser said came from another site, and a HEAD's body of any size was read (a 200 MiB upload spooled
to disk; a body trickled at 1 KiB a second held its connection past the body's deadline, as did the
rest of any body that still came once its answer was sent)."""

from __future__ import annotations

import re
import socket

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

from .test_serve import ACCEPTED, Site, csrf_of, number_of, submit  # noqa: E402
from .test_serve_attacks import read_of  # noqa: E402
from .test_serve_http import PATIENCE, closed  # noqa: E402
from .test_serve_server import server  # noqa: E402,F401  (the fixture)

STREAMS = ("/events", "/api/contests/{cid}/event-feed")  # (they read only to see their client leave)


def cookie(client) -> dict:
    return {"Cookie": "; ".join(f"{name}={value}" for name, value in client.cookies.items())}


def test_a_head_is_answered_as_its_get_and_never_reads_a_body(tmp_path):
    """Every route, as the coach (who may do everything) with the session's token in a form that any
    handler would act on: a HEAD's answer is its GET's, and nothing of its body is read."""
    site = Site(tmp_path)
    number = number_of(submit(site.client("red")))
    coach = site.client("coach")
    form = (f"csrf={csrf_of(coach.get('/problems').text)}&problem=adder&filename=a.py&source=print(1)"
            f"&submission={number}&text=a+question&action=freeze").encode()
    headers = cookie(coach) | {"Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "cross-site"}
    values = {"cid": site.contest.id, "slug": "adder", "name": "judge.js", "format:str": "csv", "id": str(number),
              "number": str(number)}
    paths = {re.sub(r"{([^}]+)}", lambda found: values[found.group(1)], route.path)
             for route in site.app.routes if route.path not in STREAMS}
    for path in sorted(paths):
        status, _ = read_of(site, "GET", path, cookie(coach), [], True)
        assert read_of(site, "HEAD", path, headers, [form], True) == (status, 0), path  # (before: /login, /submit read)
    assert len(site.store.rows("SELECT * FROM submissions")) == 1
    assert site.store.rows("SELECT * FROM clarifications") == []


def test_a_head_to_submit_or_login_stores_nothing_and_reads_no_body(tmp_path):
    site = Site(tmp_path)
    red = site.client("red")
    token = csrf_of(red.get("/submit").text)
    form = {"Content-Type": "multipart/form-data; boundary=B", "Sec-Fetch-Site": "cross-site"}
    parts = (b'--B\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n' + token.encode() +
             b'\r\n--B\r\nContent-Disposition: form-data; name="problem"\r\n\r\nadder\r\n--B\r\n'
             b'Content-Disposition: form-data; name="file"; filename="adder.py"\r\n\r\n' + ACCEPTED + b"\r\n--B--\r\n")
    assert read_of(site, "HEAD", "/submit", cookie(red) | form, [parts], True) == (200, 0)
    assert site.store.rows("SELECT * FROM submissions") == []  # (before: stored, 303, from "another site")
    big = [b"username=red&password="] + [b"x" * 65536] * 5
    assert read_of(site, "HEAD", "/login", {"Content-Type": "application/x-www-form-urlencoded"}, big, True) == (200, 0)
    assert read_of(site, "POST", "/login", {"Content-Type": "application/x-www-form-urlencoded"}, big, True) == (413, 0)


def test_a_body_that_still_comes_once_answered_buys_no_time(server):
    """A HEAD's, a GET's or a 413's body, sent faster than the body's deadline grows (1 KiB a second):
    answered at once, then closed (before: a HEAD to /login was read on, and every one was kept for as
    long as its body came)."""
    server.start("-j", "1", "--header-timeout", "1")
    trickled = []
    for method, status in (("HEAD", b"200"), ("GET", b"200"), ("POST", b"413")):
        connection = socket.create_connection(("127.0.0.1", server.port))
        connection.sendall(f"{method} /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded"
                           f"\r\nContent-Length: 100000000\r\n\r\nusername=a&password=".encode())
        connection.settimeout(PATIENCE)
        assert connection.recv(12) == b"HTTP/1.1 " + status, method
        trickled.append(connection)
    assert closed(trickled, b"a" * 1000) == 3  # (5 KB a second each)
    assert "Traceback" not in server.log.read_text()
