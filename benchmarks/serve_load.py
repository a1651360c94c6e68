#!/usr/bin/env python3
"""The load test of `judge serve` (issue 36), loopback only and bounded: T teams, S submissions in one
burst through the CLICS API, E open event streams (the pages' server-sent events), pages fetched
while it grades. Prints the p95 page time, the grading throughput, and the same work graded by a
local pool in this process (what `check` would do) for comparison; fails when any submission is not
judged exactly once.

    python benchmarks/serve_load.py --teams 100 --submissions 1000 --streams 200 -j 2

The problem is the fixture `adder`; submissions alternate an accepted and a wrong solution.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import io
import re
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=100)
    parser.add_argument("--submissions", type=int, default=1000)
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("-j", "--jobs", type=int, default=1)
    options = parser.parse_args()
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
        server = subprocess.Popen([sys.executable, str(ROOT / "judge.py"), "--problems", str(PROBLEMS), "--history",
                                   str(work / "history.sqlite"), "serve", str(contest), "--store",
                                   str(work / "store.sqlite"), "--port", str(port), "-j", str(options.jobs)])
        try:
            served = asyncio.run(_load(f"http://127.0.0.1:{port}", accounts, options, work / "store.sqlite"))
        finally:
            server.terminate()
            server.wait()
    local = _local(options)
    print(f"served: {options.submissions} submissions judged in {served:.1f} s "
          f"({options.submissions / served:.1f}/s); a local pool, the same work: {local:.1f} s "
          f"({options.submissions / local:.1f}/s)")
    return 0


async def _load(url: str, accounts, options, store: Path) -> float:
    limits = httpx.Limits(max_connections=options.streams + 50)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as client:
        for _ in range(100):
            try:
                if (await client.get("/login")).status_code == 200:
                    break
            except httpx.TransportError:
                await asyncio.sleep(0.2)
        sessions = [await _logged_in(url, team, password) for _, team, password in accounts[:options.streams]]
        streams = [asyncio.create_task(_listen(sessions[n % len(sessions)])) for n in range(options.streams)]
        started = time.monotonic()
        bodies = [_body(SOURCES[n % 2]) for n in range(2)]
        posts = [client.post("/api/contests/load/submissions", json=bodies[n % 2],
                             auth=(accounts[n % len(accounts)][1], accounts[n % len(accounts)][2]))
                 for n in range(options.submissions)]
        answers = await asyncio.gather(*posts)
        assert all(a.status_code == 200 for a in answers), [a.text for a in answers if a.status_code != 200][:3]
        print(f"burst of {options.submissions} submissions answered in {time.monotonic() - started:.1f} s")
        times = []
        while _unjudged(store):
            for path in ("/scoreboard", "/submissions", "/problems"):
                before = time.monotonic()
                (await sessions[0].get(path)).raise_for_status()
                times.append(time.monotonic() - before)
            await asyncio.sleep(0.5)
        served = time.monotonic() - started
        for stream in streams:
            stream.cancel()
        for session in sessions:
            await session.aclose()
    counts = _judgement_counts(store)
    assert len(counts) == options.submissions and set(counts) == {1}, "a submission was not judged exactly once"
    p95 = statistics.quantiles(times, n=20)[18] if len(times) >= 20 else max(times, default=0)
    print(f"pages while grading, with {options.streams} event streams open: {len(times)} fetched, "
          f"p95 {p95 * 1000:.0f} ms")
    return served


async def _logged_in(url: str, team: str, password: str) -> httpx.AsyncClient:
    session = httpx.AsyncClient(base_url=url, timeout=120)
    token = re.search(r'name="csrf" value="([^"]+)"', (await session.get("/login")).text).group(1)
    response = await session.post("/login", data={"csrf": token, "username": team, "password": password})
    assert response.status_code == 303, response.text
    return session


async def _listen(session: httpx.AsyncClient) -> None:
    async with session.stream("GET", "/events", timeout=None) as events:
        async for _ in events.aiter_lines():
            pass


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
