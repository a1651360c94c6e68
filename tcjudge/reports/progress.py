"""Progress of a long run: a live display on a terminal, a plain line every few seconds otherwise
(CI logs, pipes), so that a run of minutes is never silent.

rich draws the live display: it keeps a bar, counts and an ETA on the last lines of the terminal while
other lines scroll above it, and handles resizing and non-ASCII widths, which a hand-made `\\r` line did
badly. Nothing a solution controls is shown here: only our file names and counts.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import deque

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.progress import Progress as LiveProgress
from rich.text import Text

PLAIN_EVERY = 10.0  # seconds between plain progress lines
LABEL_WIDTH = 48  # characters of the current solution's path on the live display (its end is kept)
RATE_WINDOW = 7  # the ETA follows the pace of the last six lines (a minute), not the whole run's


class Progress:
    """Counts of tests and solutions done, the solution being graded, and an ETA."""

    def __init__(self, tests: int, solutions: int, live: bool | None = None, every: float = PLAIN_EVERY,
                 stream=None):
        self.tests, self.solutions = tests, solutions
        self.tests_done = self.solutions_done = 0
        self.current = ""
        self.started = time.monotonic()
        self.every = every
        self.stream = stream or sys.stderr
        self.live = sys.stdout.isatty() and sys.stderr.isatty() if live is None else live
        self._display = None
        self._stop = threading.Event()
        self._ticker = None
        self._samples: deque[tuple[float, int]] = deque(maxlen=RATE_WINDOW)  # (time, tests done) per line

    def __enter__(self) -> Progress:
        if self.live:
            self._display = LiveProgress(
                TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("tests"),
                TextColumn("{task.fields[solutions]}"), TimeElapsedColumn(), TextColumn("ETA"),
                TimeRemainingColumn(), console=Console(file=sys.stdout), transient=True)
            self._display.start()
            self._task = self._display.add_task("starting", total=self.tests, solutions=self._solutions_text())
        else:
            self._ticker = threading.Thread(target=self._tick, daemon=True)
            self._ticker.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._display:
            self._display.stop()
        if self._ticker:
            self._ticker.join()

    def test_done(self, solution: str) -> None:
        self.tests_done += 1
        self.current = solution
        self._refresh()

    def solution_done(self, line: str | None = None) -> None:
        """One more solution finished; `line` (ours, never a solution's text) is printed above the display."""
        self.solutions_done += 1
        if line is not None:
            if self._display:
                self._display.console.print(Text(line), highlight=False)
            else:
                print(line, flush=True)
        self._refresh()

    def plain_line(self) -> str:
        now = time.monotonic()
        elapsed = now - self.started
        self._samples.append((now, self.tests_done))
        since, done_then = self._samples[0] if len(self._samples) > 1 else (self.started, 0)
        rate = (self.tests_done - done_then) / (now - since) if now > since else 0  # recent tests per second
        eta = f", about {_duration((self.tests - self.tests_done) / rate)} left" if rate > 0 else ""
        current = f", grading {self.current}" if self.current else ""
        return (f"judge: {self.tests_done}/{self.tests} tests, {self._solutions_text()}{current}, "
                f"{_duration(elapsed)} elapsed{eta}")

    def _solutions_text(self) -> str:
        return f"{self.solutions_done}/{self.solutions} solutions"

    def _refresh(self) -> None:
        if self._display:
            label = self.current if len(self.current) <= LABEL_WIDTH else "..." + self.current[3 - LABEL_WIDTH:]
            self._display.update(self._task, completed=self.tests_done, description=escape(label),
                                 solutions=self._solutions_text())

    def _tick(self) -> None:
        while not self._stop.wait(self.every):
            print(self.plain_line(), file=self.stream, flush=True)


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"
