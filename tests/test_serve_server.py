"""`judge serve` as people run it: a server process on 127.0.0.1 and a random port, spoken to over HTTP
with httpx; and `kill -9` in the middle of a burst of submissions, then a restart: every submission
that was answered is judged exactly once."""

from __future__ import annotations

import base64
import io
import json
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import zipfile

import psutil
import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")
httpx = pytest.importorskip("httpx")

from tcjudge.cluster.tether import tethered  # noqa: E402
from tcjudge.serve.accounts import make_accounts  # noqa: E402
from tcjudge.serve.store import Store  # noqa: E402

from .conftest import FIXTURE_PROBLEMS, ROOT, TESTDATA  # noqa: E402

ACCEPTED = (TESTDATA / "solutions" / "accepted.py").read_bytes()
WRONG = (TESTDATA / "solutions" / "wrong_answer.py").read_bytes()


class Server:
    """`judge.py serve` in a process of its own, on a free loopback port."""

    def __init__(self, tmp_path):
        self.tmp = tmp_path
        self.contest = tmp_path / "burst.yaml"
        self.contest.write_text("name: Burst\nproblems: [adder]\nstart: now\nduration: 2h\nfreeze: 0m\n")
        self.store_path = tmp_path / "contest.sqlite"
        store = Store(self.store_path)
        made = make_accounts(store, [("Red", "red"), ("Blue", "blue"), ("Green", "green")])
        store.close()
        self.passwords = {username: password for _, username, password in made}
        self.process = None
        self.log = tmp_path / "server.log"

    def start(self, *options: str, same_port: bool = False) -> None:
        """`options`: more of serve's own (--cluster ADDRESS); -j 1 otherwise. `same_port`: the port of
        its last start (open pages reconnect to it)."""
        if not same_port:
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                self.port = probe.getsockname()[1]
        self.process = subprocess.Popen(tethered(  # a server outlives its parent: this one ends with the tests
            [sys.executable, str(ROOT / "judge.py"), "--problems", str(FIXTURE_PROBLEMS), "--history",
             str(self.tmp / "history.sqlite"), "serve", str(self.contest), "--store", str(self.store_path),
             "--port", str(self.port), *(options or ("-j", "1"))]), stdout=self.log.open("a"), stderr=subprocess.STDOUT,
            cwd=self.tmp)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/login", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.2)
            assert self.process.poll() is None, self.log.read_text()
        raise AssertionError(f"the server did not start: {self.log.read_text()}")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Kill the server (and, after a kill -9, the zygotes it had started, by their ids)."""
        children = psutil.Process(self.process.pid).children(recursive=True)
        self.process.send_signal(sig)
        self.process.wait(timeout=30)
        for child in children:
            try:
                child.kill()
            except psutil.NoSuchProcess:
                pass

    def judged(self) -> dict[int, list[str]]:
        with sqlite3.connect(self.store_path) as db:
            found: dict[int, list[str]] = {number: [] for (number,) in db.execute("SELECT id FROM submissions")}
            for number, verdict in db.execute("SELECT submission_id, verdict FROM judgements ORDER BY id"):
                found[number].append(verdict)
        return found


@pytest.fixture
def server(tmp_path):
    started = Server(tmp_path)
    yield started
    if started.process is not None and started.process.poll() is None:
        started.kill(signal.SIGTERM)


def zipped(name: str, data: bytes) -> str:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(name, data)
    return base64.b64encode(buffer.getvalue()).decode()


def test_a_contestant_logs_in_submits_and_the_verdict_arrives_live(server):
    server.start()
    client = httpx.Client(base_url=server.url)
    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text).group(1)
    assert client.post("/login", data={"csrf": token, "username": "red",
                                       "password": server.passwords["red"]}).status_code == 303
    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/submit").text).group(1)
    answer = client.post("/submit", data={"csrf": token, "problem": "adder"}, files={"file": ("adder.py", ACCEPTED)})
    number = int(answer.headers["location"].rsplit("/", 1)[1])
    states = []
    with client.stream("GET", "/events", timeout=60) as events:  # the verdict is pushed, not polled
        for line in events.iter_lines():
            if line.startswith("data:"):
                mine = next(s for s in json.loads(line[5:]) if s["id"] == number)
                states.append(mine["verdict"] if not mine["queued"] else "waiting")
                if not mine["queued"]:
                    break
    assert states[-1] == "AC"
    assert 'class="first"' in client.get("/scoreboard").text
    # the CLICS event feed streams the judgement to the team, and its since_token resumes after it
    feed = []
    with httpx.stream("GET", f"{server.url}/api/contests/burst/event-feed", auth=("red", server.passwords["red"]),
                      timeout=30) as stream:
        for line in stream.iter_lines():
            if line:
                feed.append(json.loads(line))
                if feed[-1]["type"] == "judgements":
                    break
    assert feed[0]["type"] == "contest" and feed[-1]["data"]["judgement_type_id"] == "AC"
    rest = httpx.get(f"{server.url}/api/contests/burst/event-feed?stream=false&since_token={feed[-1]['token']}",
                     auth=("red", server.passwords["red"])).text
    assert all(int(json.loads(line)["token"]) > int(feed[-1]["token"]) for line in rest.splitlines() if line)


def test_kill_9_mid_burst_then_restart_judges_every_answered_submission_exactly_once(server):
    server.start()
    answered: dict[int, bytes] = {}
    stop = threading.Event()

    def burst() -> None:
        clients = {name: httpx.Client(base_url=server.url, auth=(name, server.passwords[name]), timeout=10)
                   for name in ("red", "blue", "green")}
        for number in range(40):
            name = ("red", "blue", "green")[number % 3]
            source = ACCEPTED if number % 2 else WRONG
            try:
                response = clients[name].post("/api/contests/burst/submissions", json={
                    "problem_id": "adder", "language_id": "python3", "files": [{"data": zipped("adder.py", source)}]})
            except httpx.TransportError:  # the server is gone: what was answered is what counts
                return
            if response.status_code == 200:
                answered[int(response.json()["id"])] = source
            if stop.is_set():
                return
            time.sleep(0.05)  # a burst that lasts past the kill

    poster = threading.Thread(target=burst)
    poster.start()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # kill once some are judged and more are queued
        judged = server.judged()
        if sum(bool(v) for v in judged.values()) >= 2 and len(answered) >= 8:
            break
        time.sleep(0.05)
    server.kill()  # kill -9: no shutdown code runs
    stop.set()
    poster.join()
    before = server.judged()
    assert any(not verdicts for verdicts in before.values()), "nothing was left queued: the test proves nothing"
    assert len(answered) < 40, "the burst ended before the kill: the test proves less"
    print(f"killed with {len(answered)} answered, {sum(bool(v) for v in before.values())} judged")
    server.start()
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not all(server.judged().values()):
        time.sleep(0.5)
    after = server.judged()
    assert set(answered) <= set(after)  # none lost
    assert all(len(verdicts) == 1 for verdicts in after.values()), after  # each judged exactly once
    assert all(after[number] == (["AC"] if source == ACCEPTED else ["WA"]) for number, source in answered.items())
    assert "left to judge" in server.log.read_text()


def test_ctrl_c_during_a_grading_leaves_it_queued_and_the_restart_judges_it(server):
    server.start()
    client = httpx.Client(base_url=server.url, auth=("red", server.passwords["red"]), timeout=10)
    slow = (TESTDATA / "solutions" / "time_limit_loop.py").read_bytes()
    for _ in range(2):
        assert client.post("/api/contests/burst/submissions", json={"problem_id": "adder", "language_id": "python3",
                           "files": [{"data": zipped("adder.py", slow)}]}).status_code == 200
    time.sleep(1.5)  # the first is being graded (its first test runs to the time limit)
    server.kill(signal.SIGINT)
    assert server.process.returncode is not None
    before = server.judged()
    assert all(verdicts in ([], ["TLE"]) for verdicts in before.values()), before  # never IE for a cut-short run
    server.start()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not all(server.judged().values()):
        time.sleep(0.5)
    assert all(verdicts == ["TLE"] for verdicts in server.judged().values()), server.judged()


def test_ctrl_c_with_api_feeds_open_ends_them_without_a_traceback(server):
    """Breaker 55a F3: Ctrl-C with 8 API event feeds open: uvicorn cancelled each past its graceful
    shutdown, one traceback each (390 lines). The server now ends every open stream as it stops."""
    import threading

    server.start()
    opened = threading.Barrier(5)

    def hold() -> None:
        try:
            with httpx.stream("GET", f"{server.url}/api/contests/burst/event-feed", auth=("red", server.passwords["red"]),
                              timeout=30) as feed:
                opened.wait(timeout=30)
                for _ in feed.iter_raw():
                    pass
        except (httpx.HTTPError, threading.BrokenBarrierError):
            pass

    holders = [threading.Thread(target=hold, daemon=True) for _ in range(4)]
    for holder in holders:
        holder.start()
    opened.wait(timeout=30)
    server.kill(signal.SIGINT)
    log = server.log.read_text()
    assert "Traceback" not in log and "Exception in ASGI application" not in log, log  # (before: one per feed)


def test_a_client_that_goes_away_mid_upload_leaves_no_row_and_no_traceback(server):
    server.start()
    body = json.dumps({"problem_id": "adder", "language_id": "python3",
                       "files": [{"data": zipped("adder.py", ACCEPTED)}]}).encode()
    credentials = base64.b64encode(f"red:{server.passwords['red']}".encode()).decode()
    with socket.create_connection(("127.0.0.1", server.port)) as raw:
        raw.sendall(f"POST /api/contests/burst/submissions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    f"Authorization: Basic {credentials}\r\nContent-Type: application/json\r\n"
                    f"Content-Length: {len(body)}\r\n\r\n".encode() + body[:len(body) // 2])
        time.sleep(3)  # the password checked, the server waits for the rest of the body
    deadline = time.monotonic() + 30
    while "went away" not in server.log.read_text() and time.monotonic() < deadline:
        time.sleep(0.2)
    log = server.log.read_text()
    assert "a client went away during POST /api/contests/burst/submissions" in log
    assert "Traceback" not in log and "Exception in ASGI" not in log, log
    assert server.judged() == {}
    whole = httpx.post(f"{server.url}/api/contests/burst/submissions", content=body, auth=("red", server.passwords["red"]),
                       headers={"Content-Type": "application/json"}, timeout=30)
    assert whole.status_code == 200 and list(server.judged()) == [int(whole.json()["id"])]


def test_serve_grades_on_a_dask_cluster(server, tmp_path):
    """--cluster: the submissions are graded by the cluster's workers, not under the server, with the
    verdicts a local pool gives."""
    pytest.importorskip("distributed", reason="dask.distributed is not installed (pip install '.[cluster]')")
    from tcjudge.cluster.local import ZYGOTE_MARK, local_cluster

    slow = (TESTDATA / "solutions" / "time_limit_loop.py").read_bytes()
    with local_cluster(nworkers=1, cache=tmp_path / "bundle-cache") as cluster:
        server.start("--cluster", cluster.address)
        sent = {}
        for name, source, verdict in (("red", slow, "TLE"), ("blue", ACCEPTED, "AC"), ("green", WRONG, "WA")):
            response = httpx.post(f"{server.url}/api/contests/burst/submissions", auth=(name, server.passwords[name]),
                                  timeout=30, json={"problem_id": "adder", "language_id": "python3",
                                                    "files": [{"data": zipped("adder.py", source)}]})
            assert response.status_code == 200, response.text
            sent[int(response.json()["id"])] = verdict
        deadline = time.monotonic() + 120
        while not cluster.busy_zygotes():  # the slow one's tests run for seconds: seen there
            assert time.monotonic() < deadline, cluster.log() + server.log.read_text()
            time.sleep(0.05)
        here = psutil.Process(server.process.pid).children(recursive=True)
        assert not [p for p in here if ZYGOTE_MARK in " ".join(p.cmdline())], "a zygote under the server"
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and not all(server.judged().values()):
            time.sleep(0.5)
        assert server.judged() == {number: [verdict] for number, verdict in sent.items()}, server.log.read_text()
