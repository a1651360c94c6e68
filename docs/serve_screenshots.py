#!/usr/bin/env python3
"""docs/serve.md's screenshots: a contest of this checkout's problems and a Kattis package served on
127.0.0.1, 40 minutes into its 2 hours (frozen for the last 30), a few teams' submissions (stored solutions,
through the CLICS API) and a clarification answered to every team; then the contestant's and the
coach's pages taken with Playwright in Debian's chromium, each at a laptop's 1366x768 and a phone's
390x844 (serve-<page>-laptop.png, serve-<page>-phone.png; the page's whole height, at most 1600 px).

    python docs/serve_screenshots.py docs/

Everything it makes (the store, the history, the accounts) is in a temporary folder.
"""

from __future__ import annotations

import base64
import io
import socket
import subprocess
import sys
import tempfile
import time
import zipfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from tcjudge.serve.accounts import make_accounts  # noqa: E402
from tcjudge.serve.store import Store  # noqa: E402

PROBLEMS = ["chefgame", "doorsgame", "ellyscheckers", "mankala", "roxor", str(ROOT / "testdata" / "kattis" / "addtwo")]
SUBMISSIONS = [  # (team, problem, stored solution)
    ("red", "roxor", "solutions/roxor/wrong_answer"), ("red", "roxor", "solutions/roxor/accepted"),
    ("blue", "roxor", "solutions/roxor/accepted"), ("green", "mankala", "solutions/mankala/accepted"),
    ("red", "mankala", "solutions/mankala/time_limit_exceeded"), ("blue", "chefgame", "solutions/chefgame/accepted"),
    ("red", "ellyscheckers", "solutions/ellyscheckers/accepted")]
LANGUAGES = {".py": "python3", ".cpp": "cpp", ".java": "java"}
SIZES = {"laptop": (1366, 768), "phone": (390, 844)}
SHOTS = {"red": [("/submissions", "contestant"), ("/scoreboard", "scoreboard"), ("/problems/addtwo", "statement"),
                 ("/clarifications", "clarifications")],
         "coach": [("/submissions/1", "coach")]}
TALLEST = 1600  # px of a page's height taken


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        contest = work / "practice.yaml"
        start = (datetime.now(timezone.utc) - timedelta(minutes=40)).isoformat(timespec="seconds")
        contest.write_text(f"name: Practice 1\nproblems: [{', '.join(PROBLEMS)}]\nstart: '{start}'\nduration: 2h\n"
                           "freeze: 30m\nscoring: icpc\n")
        store = Store(work / "store.sqlite")
        passwords = {user: password for _, user, password in
                     make_accounts(store, [("Red Pandas", "red"), ("Blue Whales", "blue"), ("Green Geckos", "green")])}
        store.close()
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        url = f"http://127.0.0.1:{port}"
        server = subprocess.Popen([sys.executable, str(ROOT / "judge.py"), "--problems", str(ROOT / "problems"),
                                   "--history", str(work / "history.sqlite"), "serve", str(contest), "--store",
                                   str(work / "store.sqlite"), "--port", str(port), "-j", "1"])
        try:
            _wait(url)
            for team, problem, folder_name in SUBMISSIONS:
                _submit(url, team, passwords[team], problem, next(p for p in sorted((ROOT / folder_name).iterdir())
                                                                  if p.suffix in LANGUAGES))
            _until_judged(url, passwords["coach"], len(SUBMISSIONS))
            _shoot(url, passwords, out)
        finally:
            server.terminate()
            server.wait()
    return 0


def _wait(url: str) -> None:
    for _ in range(600):
        try:
            if httpx.get(f"{url}/login").status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.2)
    raise SystemExit("the server did not start")


def _submit(url: str, team: str, password: str, problem: str, path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(path.name, path.read_bytes())
    httpx.post(f"{url}/api/contests/practice/submissions", auth=(team, password), timeout=30, json={
        "problem_id": problem, "language_id": LANGUAGES[path.suffix],
        "files": [{"data": base64.b64encode(buffer.getvalue()).decode()}]}).raise_for_status()


def _until_judged(url: str, password: str, count: int) -> None:
    for _ in range(600):
        if len(httpx.get(f"{url}/api/contests/practice/judgements", auth=("coach", password)).json()) >= count:
            return
        time.sleep(0.5)
    raise SystemExit("not judged in time")


def _logged_in(browser, url: str, user: str, password: str, size: tuple[int, int]):
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.goto(f"{url}/login")
    page.get_by_label("Username").fill(user)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{url}/problems")
    return page


def _clarified(browser, url: str, passwords: dict) -> None:
    """Red asks; the coach answers to every team."""
    red = _logged_in(browser, url, "red", passwords["red"], SIZES["laptop"])
    red.goto(f"{url}/clarifications")
    red.get_by_label("Problem").select_option("roxor")
    red.get_by_label("Ask the judges").fill("May the piles be all empty but the last?")
    red.get_by_role("button", name="Send").click()
    coach = _logged_in(browser, url, "coach", passwords["coach"], SIZES["laptop"])
    coach.goto(f"{url}/clarifications")
    coach.get_by_label("Answer Red Pandas's question").fill("No: the constraints say some pile before the last "
                                                            "holds a stone.")
    coach.get_by_role("checkbox", name="to every team (they see the question too)").check()
    coach.get_by_role("button", name="Answer").click()
    red.close()
    coach.close()


def _shoot(url: str, passwords: dict, out: Path) -> None:
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        _clarified(browser, url, passwords)
        for size_name, size in SIZES.items():
            for user, pages in SHOTS.items():
                page = _logged_in(browser, url, user, passwords[user], size)
                for path, name in pages:
                    page.goto(url + path)
                    height = min(TALLEST, page.evaluate("document.documentElement.scrollHeight"))
                    target = out / f"serve-{name}-{size_name}.png"
                    page.screenshot(path=str(target), clip={"x": 0, "y": 0, "width": size[0], "height": height},
                                    full_page=True)
                    print(f"wrote {target}")
                page.close()
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
