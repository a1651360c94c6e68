"""A real browser for the report pages' tests and benchmarks/report_page.py: Debian's chromium,
headless, driven over the DevTools protocol on a pipe (--remote-debugging-pipe: commands on the
browser's fd 3, replies on its fd 4, NUL-separated JSON), so no websocket library or port is needed;
axe-core from npm (tests/axe/package.json; `npm ci --prefix tests/axe`, which .ci/run does)
for the accessibility check; and a synthetic report as large as a coach's (300 tests, 70 solutions).
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import random
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from tcjudge.engine.results import GradeResult, TestResult
from tcjudge.languages import EXTENSIONS
from tcjudge.problems.catalog import Catalog
from tcjudge.problems.expectations import Expectation
from tcjudge.record import replace
from tcjudge.verdicts import Verdict

HERE = Path(__file__).resolve().parent
AXE = HERE / "axe" / "node_modules" / "axe-core" / "axe.min.js"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--no-default-browser-check", "--hide-scrollbars", "--mute-audio"]


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if chromium() is None:
        return "chromium is not installed (`apt-get install chromium`; .ci/run does)"
    return None


def axe_missing() -> str | None:
    if not AXE.is_file():
        return f"axe-core is not installed ({AXE} is missing: `npm ci --prefix tests/axe`; .ci/run does)"
    return None


def _above_4(fd: int) -> int:
    """The same pipe end on a number above 4, so that moving it to fd 3 or 4 cannot close another."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return moved


class BrowserError(Exception):
    pass


class Browser:
    """One headless chromium with one page; `with Browser() as page: page.open(url) ...`."""

    def __init__(self, width: int = 1400, height: int = 900, timeout: float = 60):
        self.width, self.height, self.timeout = width, height, timeout
        self.profile = tempfile.mkdtemp(prefix="tcjudge-chromium-")
        commands_read, self._commands = os.pipe()
        self._replies, replies_write = os.pipe()
        commands_read, replies_write = _above_4(commands_read), _above_4(replies_write)
        # bash (dash refuses fds above 9) puts our pipe ends on the fds chromium expects, then becomes chromium.
        script = f'exec "$0" "$@" 3<&{commands_read} 4>&{replies_write} {commands_read}<&- {replies_write}>&-'
        self.process = subprocess.Popen(
            ["bash", "-c", script, chromium(), *FLAGS, "--remote-debugging-pipe", f"--window-size={width},{height}",
             f"--user-data-dir={self.profile}", "about:blank"],
            pass_fds=(commands_read, replies_write), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(commands_read)
        os.close(replies_write)
        self._next = 0
        self._replies_by_id: dict[int, dict] = {}
        self.events: list[dict] = []
        self._arrived = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.session = None
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        for domain in ("Page", "Runtime"):
            self.send(f"{domain}.enable")
        self.send("Page.setBypassCSP", {"enabled": True})  # for axe: the pages allow inline scripts only
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        try:
            os.close(self._commands)
        except OSError:
            pass
        try:
            self.process.wait(timeout=10)  # chromium exits when its command pipe closes
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    def _read(self) -> None:
        buffer = b""
        while chunk := os.read(self._replies, 1 << 16):
            buffer += chunk
            *messages, buffer = buffer.split(b"\0")
            with self._arrived:
                for message in messages:
                    data = json.loads(message)
                    if "id" in data:
                        self._replies_by_id[data["id"]] = data
                    else:
                        self.events.append(data)
                self._arrived.notify_all()
        os.close(self._replies)
        with self._arrived:
            self._arrived.notify_all()

    def send(self, method: str, params: dict | None = None, session=None) -> dict:
        self._next += 1
        message = {"id": self._next, "method": method, "params": params or {}}
        if session is not False and (session or self.session):
            message["sessionId"] = session or self.session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        with self._arrived:
            if not self._arrived.wait_for(lambda: message["id"] in self._replies_by_id or not self._reader.is_alive(),
                                          self.timeout):
                raise BrowserError(f"{method}: no reply in {self.timeout} s")
        reply = self._replies_by_id.pop(message["id"], None)
        if reply is None:
            raise BrowserError(f"{method}: chromium has gone")
        if "error" in reply:
            raise BrowserError(f"{method}: {reply['error']}")
        return reply["result"]

    def open(self, url: str) -> None:
        """Load a page and wait for its load event."""
        with self._arrived:
            self.events.clear()
        self.send("Page.navigate", {"url": url})
        with self._arrived:
            if not self._arrived.wait_for(lambda: any(e.get("method") == "Page.loadEventFired" for e in self.events),
                                          self.timeout):
                raise BrowserError(f"{url}: not loaded in {self.timeout} s")

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page (a promise is awaited)."""
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression[:80]}...: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path: Path, full_height: int | None = None) -> None:
        params = {"format": "png"}
        if full_height:
            params["clip"] = {"x": 0, "y": 0, "width": self.width, "height": full_height, "scale": 1}
            params["captureBeyondViewport"] = True
        path.write_bytes(base64.b64decode(self.send("Page.captureScreenshot", params)["data"]))

    def axe(self) -> dict:
        """axe-core's findings on the open page (every rule it runs by default: WCAG 2.x A and AA and
        its best practices): the violations, and what it could not decide ("incomplete"), each as
        {id, impact, help, nodes, where, why}."""
        self.evaluate(AXE.read_text(encoding="utf-8") + ";0")
        # where: the kinds of element (tag and classes) it found, e.g. "td.strip"
        found = ("(list => list.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length,"
                 " where: [...new Set(v.nodes.map(n => { const e = document.querySelector(n.target[0]);"
                 " return e ? [e.tagName.toLowerCase(), ...e.classList].join('.') : n.target[0]; }))],"
                 " why: [...new Set(v.nodes.flatMap(n => n.any.map(a => a.message)))]})))")
        return self.evaluate(f"axe.run(document).then(r => ({{violations: {found}(r.violations), "
                             f"incomplete: {found}(r.incomplete), version: r.testEngine.version}}))")


# -- a report as large as a coach's -------------------------------------------------------------------

TEST_NAMES = ["example-{}", "system-{:03d}", "random-small-{:03d}", "edge-thirteen-back-to-start-pit-{}",
              "max-all-piles-equal-{:03d}", "edge-trophy-first-room-only-shared-{}"]


def big_results(project: Path, tests: int = 300, solutions: int = 70, seed: int = 1) -> list[GradeResult]:
    """`solutions` results on `tests` tests of the adder fixture problem (in `project`, a copy as the
    report tests make), with names, verdicts and timings of a real problem's spread: most solutions
    accepted, wrong ones failing on some tests with every verdict, one that does not load."""
    rng = random.Random(seed)
    base = Catalog(project / "problems", project / "solutions", EXTENSIONS).problem("adder")
    cases = [replace(base.tests[i % len(base.tests)], name=TEST_NAMES[i % len(TEST_NAMES)].format(i)) for i in range(tests)]
    problem = replace(base, tests=cases, time_limit=2.0)
    folders = ["accepted"] * 30 + ["wrong_answer"] * 25 + ["time_limit_exceeded"] * 8 + ["runtime_error"] * 4 + \
              ["memory_limit_exceeded"] * 2 + ["compile_error"]
    expected = {"accepted": Verdict.AC, "wrong_answer": Verdict.WA, "time_limit_exceeded": Verdict.TLE,
                "runtime_error": Verdict.RE, "memory_limit_exceeded": Verdict.MLE, "compile_error": Verdict.CE}
    results = []
    for number in range(solutions):
        folder = folders[number % len(folders)]
        path = project / "solutions" / "adder" / folder / f"solution_{number:02d}.py"
        verdict = expected[folder]
        if verdict is Verdict.CE:
            results.append(GradeResult(problem, path, [TestResult(t.name, None) for t in cases],
                                       "SyntaxError: invalid syntax (line 3)", 9.0, Expectation.of(verdict)))
            continue
        speed = rng.choice([0.3, 1.0, 5.0, 40.0])
        failing = verdict is not Verdict.AC
        rows = []
        for index, case in enumerate(cases):
            fails = failing and rng.random() < 0.3
            got = (Verdict.IE if (number, index) == (40, 7) else verdict) if fails or (number, index) == (40, 7) else Verdict.AC
            cpu = 2000.0 if got is Verdict.TLE else speed * rng.uniform(0.5, 3) * (1 + index / tests)
            rows.append(TestResult(case.name, got, cpu, cpu * 1.2 + 1, 10.5, "expected 12, got 11" if got is Verdict.WA else ""))
        results.append(GradeResult(problem, path, rows, "", 9.0, Expectation.of(verdict)))
    return results
