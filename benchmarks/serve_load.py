#!/usr/bin/env python3
"""The load test of `judge serve` (issue 36), loopback only and bounded: T teams, S submissions in one
burst through the CLICS API, E open event streams (the pages' server-sent events), pages fetched
while it grades. Prints the p95 page time, the grading throughput, and the same work graded by a
local pool in this process (what `check` would do) for comparison. Clients behave as real ones do: each
team sends its share of the burst from a client of its own over its share of --connections (one
shared pool of 1,000 queued requests spent the load generator's CPU in httpcore's queue, not the
server's), httpx's 5 s keep-alive, 10 s to connect and 60 s to
answer, event streams reconnected after a break; an error is counted and reported, never raised. It
FAILs (exit 1) when a submission is not answered, lost, or not judged exactly once, when the server
dies or logs a traceback, or when the grading outlasts --deadline.

    python benchmarks/serve_load.py --teams 100 --submissions 1000 --streams 200 -j 2

The problem is the fixture `adder`; submissions alternate an accepted and a wrong solution.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import base64
import io
import os
import re
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from tcjudge.engine.pool import Pool, SolutionRun  # noqa: E402
from tcjudge.problems.loader import load_problem  # noqa: E402
from tcjudge.serve.accounts import make_accounts  # noqa: E402
from tcjudge.serve.store import Store  # noqa: E402

PROBLEMS = ROOT / "testdata" / "problems"
SOURCES = [ROOT / "testdata" / "solutions" / "accepted.py", ROOT / "testdata" / "solutions" / "wrong_answer.py"]


TIMEOUT = httpx.Timeout(connect=10, read=60, write=30, pool=None)  # a client's patience; waiting for a connection
# of its own is the pool's queue (bounded by --deadline)
KEEPALIVE = 5  # seconds a client keeps an idle connection (httpx's default; the server keeps one 75 s)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=100)
    parser.add_argument("--submissions", type=int, default=1000)
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--connections", type=int, default=100,
                        help="the burst's connections, shared out among the teams, at least one each (default: 100)")
    parser.add_argument("--deadline", type=float, default=3600, help="seconds the grading may take (default: 3600)")
    options = parser.parse_args()
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        contest = work / "load.yaml"
        contest.write_text("name: Load\nproblems: [adder]\nstart: now\nduration: 5h\nfreeze: 0m\n")
        store = Store(work / "store.sqlite")
        accounts = make_accounts(store, [(f"team {n}", f"t{n}") for n in range(options.teams)], coach=False)
        store.close()
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        log = work / "server.log"
        with log.open("w") as written:
            server = subprocess.Popen([sys.executable, str(ROOT / "judge.py"), "--problems", str(PROBLEMS), "--history",
                                       str(work / "history.sqlite"), "serve", str(contest), "--store",
                                       str(work / "store.sqlite"), "--port", str(port), "-j", str(options.jobs)],
                                      stdout=written, stderr=subprocess.STDOUT)
        load = Load(options)
        sampler = threading.Thread(target=load.sample_load, daemon=True)
        sampler.start()
        try:
            served = asyncio.run(load.run(f"http://127.0.0.1:{port}", accounts, work / "store.sqlite"))
        finally:
            alive = server.poll() is None
            server.terminate()
            server.wait()
            load.done.set()
        said = log.read_text()
    failures = load.report(served, alive, said)
    local = _local(options)
    judged = len(load.counts) - load.counts.count(0)
    print(f"served: {judged} submissions judged in {served:.1f} s "
          f"({judged / served:.2f}/s); a local pool, {options.submissions}: {local:.1f} s "
          f"({options.submissions / local:.2f}/s)")
    print(f"load average: {load.loads[0]:.1f} at the start, at most {max(load.loads):.1f}, "
          f"{os.getloadavg()[0]:.1f} at the end; wall time {time.monotonic() - started:.0f} s")
    for failure in failures:
        print(f"FAIL: {failure}")
    print("FAIL" if failures else "PASS")
    return 1 if failures else 0


class Load:
    """The clients of one run and what they saw: errors are counted by kind, never raised."""

    def __init__(self, options):
        self.options = options
        self.errors: collections.Counter = collections.Counter()
        self.answered: list[int] = []  # the submissions' ids the server answered
        self.times: list[float] = []  # the pages' times, in seconds
        self.counts: list[int] = []  # judgements per stored submission
        self.burst = 0.0
        self.loads = [os.getloadavg()[0]]
        self.done = threading.Event()

    def sample_load(self) -> None:
        while not self.done.wait(5):
            self.loads.append(os.getloadavg()[0])

    def error(self, what: str, err: BaseException | None = None, status: int | None = None) -> None:
        self.errors[f"{what}: {type(err).__name__ if err is not None else f'HTTP {status}'}"] += 1

    async def run(self, url: str, accounts, store: Path) -> float:
        limits = httpx.Limits(max_connections=self.options.connections, keepalive_expiry=KEEPALIVE)
        async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT, limits=limits) as client:
            await _started(client)
            gate = asyncio.Semaphore(10)
            sessions = await asyncio.gather(*(self.logged_in(url, team, password, gate)
                                              for _, team, password in accounts[:self.options.streams]))
            sessions = [session for session in sessions if session is not None]
            streams = [asyncio.create_task(self.listen(sessions[n % len(sessions)])) for n in range(self.options.streams)]
            started = time.monotonic()
            bodies = [_body(SOURCES[n % 2]) for n in range(2)]
            await asyncio.gather(*(self.team_burst(url, accounts[team], [bodies[n % 2] for n in range(
                team, self.options.submissions, len(accounts))]) for team in range(len(accounts))))
            self.burst = time.monotonic() - started
            print(f"burst of {self.options.submissions} submissions answered in {self.burst:.1f} s", flush=True)
            deadline = started + self.options.deadline
            while _unjudged(store) and time.monotonic() < deadline:
                for path in ("/scoreboard", "/submissions", "/problems"):
                    await self.page(sessions[0], path)
                await asyncio.sleep(0.5)
            served = time.monotonic() - started
            for stream in streams:
                stream.cancel()
            await asyncio.gather(*streams, return_exceptions=True)
            for session in sessions:
                await session.aclose()
        self.counts = _judgement_counts(store)
        return served

    async def logged_in(self, url: str, team: str, password: str, gate) -> httpx.AsyncClient | None:
        session = httpx.AsyncClient(base_url=url, timeout=TIMEOUT, limits=httpx.Limits(keepalive_expiry=KEEPALIVE))
        async with gate:
            for _ in range(3):
                try:
                    token = re.search(r'name="csrf" value="([^"]+)"', (await session.get("/login")).text).group(1)
                    response = await session.post("/login", data={"csrf": token, "username": team, "password": password})
                    if response.status_code == 303:
                        return session
                    self.error("login", status=response.status_code)
                except httpx.HTTPError as err:
                    self.error("login", err)
        await session.aclose()
        return None

    async def listen(self, session: httpx.AsyncClient) -> None:
        """An open event stream, as a browser's EventSource keeps it: reconnected a second after it breaks."""
        while True:
            try:
                async with session.stream("GET", "/events", timeout=httpx.Timeout(10, read=None)) as events:
                    if events.status_code != 200:
                        self.error("stream", status=events.status_code)
                    async for _ in events.aiter_lines():
                        pass
            except httpx.HTTPError as err:
                self.error("stream", err)
            await asyncio.sleep(1)

    async def team_burst(self, url: str, account, bodies: list[dict]) -> None:
        """One team's share of the burst, sent at once from a client of its own (as each team runs its
        own tool), over its share of --connections (at least one)."""
        share = max(1, self.options.connections // self.options.teams)
        limits = httpx.Limits(max_connections=share, keepalive_expiry=KEEPALIVE)
        async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT, limits=limits) as client:
            await asyncio.gather(*(self.post(client, body, account) for body in bodies))

    async def post(self, client: httpx.AsyncClient, body: dict, account) -> None:
        try:
            answer = await client.post("/api/contests/load/submissions", json=body, auth=(account[1], account[2]))
        except httpx.HTTPError as err:
            self.error("submission", err)
            return
        if answer.status_code != 200:
            self.error("submission", status=answer.status_code)
            return
        self.answered.append(int(answer.json()["id"]))

    async def page(self, session: httpx.AsyncClient, path: str) -> None:
        before = time.monotonic()
        try:
            response = await session.get(path)
        except httpx.HTTPError as err:
            self.error("page", err)
            return
        if response.status_code != 200:
            self.error("page", status=response.status_code)
            return
        self.times.append(time.monotonic() - before)

    def report(self, served: float, alive: bool, said: str) -> list[str]:
        """Print what was seen; the failures."""
        times = self.times
        p95 = statistics.quantiles(times, n=20)[18] if len(times) >= 20 else max(times, default=0)
        print(f"pages while grading, with {self.options.streams} event streams open: {len(times)} fetched, "
              f"p95 {p95 * 1000:.0f} ms")
        for what, count in sorted(self.errors.items()):
            print(f"error: {what}: {count}")
        judged = collections.Counter(self.counts)
        print(f"stored {len(self.counts)}, answered {len(self.answered)}; judged once: {judged[1]}, "
              f"never: {judged[0]}, more than once: {len(self.counts) - judged[0] - judged[1]}")
        failures = []
        if len(self.answered) < self.options.submissions:
            failures.append(f"{self.options.submissions - len(self.answered)} submission(s) not answered")
        if len(self.counts) < len(self.answered):
            failures.append(f"{len(self.answered) - len(self.counts)} answered submission(s) lost")
        if set(self.counts) - {1}:
            failures.append("a submission was not judged exactly once")
        if not alive:
            failures.append("the server died")
        if "Traceback" in said:
            failures.append(f"the server logged {said.count('Traceback')} traceback(s)")
        gone = said.count("a client went away")
        if gone:
            print(f"the server saw {gone} client(s) go away")
        return failures


async def _started(client: httpx.AsyncClient) -> None:
    for _ in range(300):
        try:
            if (await client.get("/login")).status_code == 200:
                return
        except httpx.TransportError:
            await asyncio.sleep(0.2)
    raise SystemExit("the server did not start")


def _body(path: Path) -> dict:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("adder.py", path.read_bytes())
    return {"problem_id": "adder", "language_id": "python3", "files": [{"data": base64.b64encode(buffer.getvalue()).decode()}]}


def _unjudged(store: Path) -> int:
    with sqlite3.connect(store) as db:
        return db.execute("SELECT count(*) FROM submissions WHERE state = 'queued'").fetchone()[0]


def _judgement_counts(store: Path) -> list[int]:
    with sqlite3.connect(store) as db:
        return [n for (n,) in db.execute("SELECT count(j.id) FROM submissions s LEFT JOIN judgements j "
                                          "ON j.submission_id = s.id GROUP BY s.id")]


def _local(options) -> float:
    """The same submissions graded by a local pool in this process, as `check` grades: seconds."""
    problem = load_problem(PROBLEMS / "adder")
    runs = [SolutionRun(problem, SOURCES[n % 2], problem.tests, True, verdicts_only=True)
            for n in range(options.submissions)]
    started = time.monotonic()
    with Pool(options.jobs) as pool:
        pool.grade(runs)
    return time.monotonic() - started


if __name__ == "__main__":
    sys.exit(main())
