#!/usr/bin/env python3
"""A contest rehearsed end to end, as issue 36's "done means" says: this checkout's problems and
Kattis packages given on the command line, accounts made by `judge accounts`, a contestant in
chromium (Playwright) who reads every statement and pastes a solution, then every stored solution
and every package submission in a contest language sent through the CLICS API by the teams at once,
the server killed with SIGKILL (and its zygotes with it) in the middle of that burst, restarted,
and the requests that got no answer sent again, as a client retries.

It FAILs (exit 1) unless every stored submission is judged exactly once, every answered one is
stored, every verdict is the one its folder names, and the CLICS API (as the coach) lists one valid
judgement per submission.

    python benchmarks/serve_rehearsal.py PACKAGE... [--teams 30] [-j 2] [--shots DIR]

Everything it makes (contest file, store, history, accounts) is in a temporary folder.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import collections
import csv
import hashlib
import io
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import psutil  # noqa: E402
from tabulate import tabulate  # noqa: E402

LANGUAGES = {".py": "python3", ".cpp": "cpp", ".cc": "cpp", ".c": "c", ".java": "java", ".kt": "kotlin"}
EXPECTED = {"accepted": {"AC"}, "slow_accepted": {"AC", "TLE"}, "wrong_answer": {"WA"}, "time_limit_exceeded": {"TLE"},
            "runtime_error": {"RTE"}, "run_time_error": {"RTE"}, "memory_limit_exceeded": {"MLE"},
            "compile_error": {"CE"}}  # folder -> the CLICS judgement types it allows (slow_accepted: either)
CONTEST = "rehearsal"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packages", nargs="+", type=Path, help="Kattis package folders")
    parser.add_argument("--teams", type=int, default=30)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--shots", type=Path, help="save screenshots of the contestant's and coach's pages here")
    options = parser.parse_args()
    began = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        ours = sorted(path.name for path in (ROOT / "problems").iterdir() if (path / "problem.yaml").exists())
        contest = work / f"{CONTEST}.yaml"
        contest.write_text(f"name: Rehearsal\nproblems: [{', '.join(ours + [str(p.resolve()) for p in options.packages])}]\n"
                           "start: now\nduration: 5h\nfreeze: 1h\nscoring: icpc\n")
        store = work / "store.sqlite"
        subprocess.run([sys.executable, str(ROOT / "judge.py"), "accounts", str(contest), "--count", str(options.teams),
                        "--out", str(work / "accounts"), "--store", str(store)], check=True, stdout=subprocess.DEVNULL)
        teams = [(row["username"], row["password"]) for row in csv.DictReader((work / "accounts" / "accounts.csv").open())]
        coach = next((row["username"], row["password"]) for row in csv.DictReader((work / "accounts" / "coach.csv").open()))
        items, left_out = _work(ours, options.packages)
        for line in left_out:
            print(f"left out: {line}")
        server = Server(work, contest, store, options.jobs)
        server.start()
        try:
            _browser(server.url, teams[0], coach, items, options.shots)
            answered, unanswered = asyncio.run(_burst(server, teams, items))  # (unanswered after the retry)
            judged_in = _until_judged(store, deadline=1800)
            counts, verdicts = _judged(store, items)
            listed = httpx.get(f"{server.url}/api/contests/{CONTEST}/judgements", auth=coach, timeout=60).json()
        finally:
            server.stop()
    return _report(items, answered, unanswered, counts, verdicts, listed, judged_in, time.monotonic() - began)


def _work(ours: list[str], packages: list[Path]) -> tuple[list[dict], list[str]]:
    """Every stored solution of ours and every single-file package submission in a contest language,
    with the verdict its folder names."""
    items, left_out = [], []
    folders = [(slug, ROOT / "solutions" / slug, False) for slug in ours]
    folders += [(p.name, p / "submissions", True) for p in packages]
    for slug, root, package in folders:
        for path in sorted(root.glob("*/*")):
            expected = EXPECTED.get(path.parent.name)
            if expected is None or not path.is_file() or path.suffix not in LANGUAGES:
                left_out.append(f"{slug}/{path.parent.name}/{path.name}: not a single file of a contest language")
                continue
            if package and path.suffix == ".py" and _python2(path):  # (ours: its folder says what it gets)
                left_out.append(f"{slug}/{path.parent.name}/{path.name}: Python 2, not a contest language")
                continue
            data = path.read_bytes()
            items.append({"problem": slug, "path": path, "expected": expected, "name": path.name,
                          "key": _key(slug, path.name, data), "zip": _zipped(path.name, data)})
    return items, left_out


def _key(problem: str, name: str, data: bytes) -> tuple[str, str, str]:
    """What finds a stored submission's item: a browser sends a pasted source's line ends as CRLF."""
    return problem, name, hashlib.sha256(data.replace(b"\r\n", b"\n")).hexdigest()


def _python2(path: Path) -> bool:
    try:
        compile(path.read_bytes(), str(path), "exec")
    except SyntaxError:
        return "print " in path.read_text(errors="replace")
    return False


def _zipped(name: str, data: bytes) -> str:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(name, data)
    return base64.b64encode(buffer.getvalue()).decode()


class Server:
    def __init__(self, work: Path, contest: Path, store: Path, jobs: int):
        self.work, self.contest, self.store, self.jobs = work, contest, store, jobs
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.url = f"http://127.0.0.1:{probe.getsockname()[1]}"
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "judge.py"), "--problems", str(ROOT / "problems"), "--history",
             str(self.work / "history.sqlite"), "serve", str(self.contest), "--store", str(self.store), "--port",
             self.url.rsplit(":", 1)[1], "-j", str(self.jobs)], stdout=(self.work / "server.log").open("a"),
            stderr=subprocess.STDOUT)
        for _ in range(600):
            try:
                if httpx.get(f"{self.url}/login", timeout=5).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.2)
            if self.process.poll() is not None:
                raise SystemExit(f"the server ended: {(self.work / 'server.log').read_text()[-2000:]}")
        raise SystemExit("the server did not start in 120 s")

    def kill(self) -> None:
        """kill -9 of the server, then of the zygotes it started (orphaned, they would grade on)."""
        children = psutil.Process(self.process.pid).children(recursive=True)
        self.process.kill()
        self.process.wait()
        for child in children:
            try:
                child.kill()
            except psutil.NoSuchProcess:
                pass

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=60)


def _browser(url: str, team: tuple[str, str], coach: tuple[str, str], items: list[dict], shots: Path | None) -> None:
    """A contestant reads every statement and pastes a Python solution, and sees its verdict arrive."""
    from playwright.sync_api import sync_playwright

    paste = next(item for item in items if item["expected"] == {"AC"} and item["path"].suffix == ".py")
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        page = _logged_in(browser, url, team)
        links = [link.get_attribute("href") for link in page.locator("a[href^='/problems/']").all()]
        slugs = [link.rsplit("/", 1)[1] for link in links if link.count("/") == 2]
        for slug in slugs:
            page.goto(f"{url}/problems/{slug}")
            assert page.locator("h1").count() >= 1, f"{slug}: no heading"
        page.goto(f"{url}/submit")
        page.get_by_label("Problem").select_option(paste["problem"])
        page.get_by_label("File name").fill(paste["name"])
        page.get_by_label("Source", exact=True).fill(paste["path"].read_text())
        page.get_by_role("button", name="Submit").click()
        page.wait_for_url(lambda address: "/submissions/" in address)
        number = page.url.rsplit("/", 1)[1]
        page.locator(f"#s{number} .verdict").filter(has_text="AC").wait_for(timeout=300_000)
        print(f"browser: {team[0]} read {len(slugs)} statements, pasted {paste['path'].name} "
              f"({paste['problem']}) and saw AC arrive", flush=True)
        if shots is not None:
            for name, where, who in (("rehearsal-problems.png", "/problems", page),
                                     ("rehearsal-contestant.png", "/submissions", page)):
                who.goto(url + where)
                who.screenshot(path=str(shots / name), full_page=True)
            coach_page = _logged_in(browser, url, coach)
            coach_page.goto(f"{url}/submissions/{number}")
            coach_page.screenshot(path=str(shots / "rehearsal-coach.png"), full_page=True)
        browser.close()


def _logged_in(browser, url: str, account: tuple[str, str]):
    page = browser.new_page(viewport={"width": 1100, "height": 700})
    page.goto(f"{url}/login")
    page.get_by_label("Username").fill(account[0])
    page.get_by_label("Password").fill(account[1])
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{url}/problems")
    return page


async def _burst(server: Server, teams: list[tuple[str, str]], items: list[dict]) -> tuple[list[int], int]:
    """Every item sent at once, item n by team n mod T, each team from a client of its own; the
    server killed once half are answered, restarted, and the unanswered sent again."""
    answered: list[int] = []
    failed: list[tuple[dict, tuple[str, str]]] = []
    half = asyncio.Event()

    async def send(client, item, team):
        try:
            answer = await client.post(f"/api/contests/{CONTEST}/submissions", auth=team, json={
                "problem_id": item["problem"], "language_id": LANGUAGES[item["path"].suffix],
                "files": [{"data": item["zip"]}]})
            answer.raise_for_status()
            answered.append(int(answer.json()["id"]))
            if len(answered) >= len(items) // 2:
                half.set()
        except httpx.HTTPError:
            failed.append((item, team))

    async def team_sends(n, team):
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
            await asyncio.gather(*(send(client, item, team) for item in items[n::len(teams)]))

    sending = asyncio.gather(*(team_sends(n, team) for n, team in enumerate(teams)))
    await half.wait()
    server.kill()
    print(f"kill -9 with {len(answered)} of {len(items)} answered", flush=True)
    await sending
    print(f"{len(answered)} answered in all, {len(failed)} got no answer", flush=True)
    server.start()
    again = list(failed)
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
        failed.clear()
        await asyncio.gather(*(send(client, item, team) for item, team in again))
    print(f"restarted, sent again: {len(answered)} answered in all, {len(failed)} without an answer", flush=True)
    return answered, len(failed)


def _until_judged(store: Path, deadline: float) -> float:
    started = time.monotonic()
    while time.monotonic() - started < deadline:
        with sqlite3.connect(store) as db:
            if not db.execute("SELECT count(*) FROM submissions WHERE state = 'queued'").fetchone()[0]:
                return time.monotonic() - started
        time.sleep(1)
    raise SystemExit(f"not judged in {deadline:.0f} s")


def _judged(store: Path, items: list[dict]) -> tuple[dict[int, int], dict[int, tuple[dict, str]]]:
    """Per stored submission: its judgements, and (its item, its valid verdict)."""
    by_key = {item["key"]: item for item in items}
    counts, verdicts = {}, {}
    with sqlite3.connect(store) as db:
        for number, problem, name, source, zipped in db.execute(
                "SELECT id, problem, filename, source, zipped FROM submissions"):
            counts[number] = db.execute("SELECT count(*) FROM judgements WHERE submission_id = ?", (number,)).fetchone()[0]
            data = source
            if zipped:
                with zipfile.ZipFile(io.BytesIO(source)) as archive:
                    name = archive.namelist()[0]
                    data = archive.read(name)
            found = db.execute("SELECT verdict FROM judgements WHERE submission_id = ? AND valid = 1",
                               (number,)).fetchone()
            verdicts[number] = (by_key.get(_key(problem, name, data)), found and found[0])
    return counts, verdicts


def _report(items, answered, unanswered, counts, verdicts, listed, judged_in, wall) -> int:
    clics = {"RE": "RTE", "IE": "JE"}
    rows, misses = collections.defaultdict(lambda: [0, 0]), []
    for number, (item, verdict) in sorted(verdicts.items()):
        if item is None:
            misses.append(f"submission {number}: a source that was never sent")
            continue
        got = clics.get(verdict, verdict)
        rows[item["problem"]][0] += 1
        rows[item["problem"]][1] += got in item["expected"]
        if got not in item["expected"]:
            misses.append(f"{item['problem']}/{item['path'].parent.name}/{item['name']}: {got}, "
                          f"expected {' or '.join(sorted(item['expected']))}")
    print(tabulate([(problem, sent, matched) for problem, (sent, matched) in rows.items()],
                   headers=["problem", "judged", "as expected"]))
    for miss in misses:
        print(f"miss: {miss}")
    once = sum(1 for count in counts.values() if count == 1)
    print(f"stored {len(counts)}, answered {len(answered)}, judged once {once}; the API lists {len(listed)} "
          f"judgements; graded in {judged_in:.0f} s after the restart; {wall:.0f} s in all")
    failures = [f"{unanswered} submission(s) got no answer after the restart"] if unanswered else []
    if once != len(counts):
        failures.append("a stored submission was not judged exactly once")
    if set(answered) - set(counts):
        failures.append("an answered submission was lost")
    if misses:
        failures.append(f"{len(misses)} verdict(s) not as their folders say")
    if len(listed) != len(counts) or {j["submission_id"] for j in listed} != {str(n) for n in counts}:
        failures.append("the API's judgements are not one per submission")
    for failure in failures:
        print(f"FAIL: {failure}")
    print("FAIL" if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
