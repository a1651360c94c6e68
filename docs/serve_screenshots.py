#!/usr/bin/env python3
"""docs/serve.md's screenshots: a contest of this checkout's problems served on 127.0.0.1, a few
teams' submissions (stored solutions, through the CLICS API), then the contestant's and the
coach's pages taken with Playwright in Debian's chromium.

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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from tcjudge.serve.accounts import make_accounts  # noqa: E402
from tcjudge.serve.store import Store  # noqa: E402

SUBMISSIONS = [  # (team, problem, stored solution)
    ("red", "roxor", "solutions/roxor/wrong_answer"), ("red", "roxor", "solutions/roxor/accepted"),
    ("blue", "roxor", "solutions/roxor/accepted"), ("green", "mankala", "solutions/mankala/accepted"),
    ("red", "mankala", "solutions/mankala/time_limit_exceeded"), ("blue", "chefgame", "solutions/chefgame/accepted"),
    ("red", "ellyscheckers", "solutions/ellyscheckers/accepted")]
LANGUAGES = {".py": "python3", ".cpp": "cpp", ".java": "java"}


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        contest = work / "practice.yaml"
        contest.write_text("name: Practice 1\nproblems: [chefgame, doorsgame, ellyscheckers, mankala, roxor]\n"
                           "start: now\nduration: 2h\nfreeze: 30m\nscoring: icpc\n")
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
    for _ in range(200):
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


def _shoot(url: str, passwords: dict, out: Path) -> None:
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for user, pages in (("red", [("/submissions", "serve-contestant.png"), ("/scoreboard", "serve-scoreboard.png")]),
                            ("coach", [("/submissions/2", "serve-coach.png")])):
            page = browser.new_page(viewport={"width": 1100, "height": 640})
            page.goto(f"{url}/login")
            page.get_by_label("Username").fill(user)
            page.get_by_label("Password").fill(passwords[user])
            page.get_by_role("button", name="Log in").click()
            page.wait_for_url(f"{url}/problems")
            for path, name in pages:
                page.goto(url + path)
                page.screenshot(path=str(out / name))
                print(f"wrote {out / name}")
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
