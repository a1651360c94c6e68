"""Progress of a long run: a live display on a terminal, a plain line every few seconds otherwise
(CI logs, pipes), so that a run of minutes is never silent. The time left is eta.Estimate's: from
the history's record of each solution (`plan`) and the run's own figures. A command that works in
phases rather than through a run of tests (validate's proofs) shows them with `Phases`.

rich draws the live display: it keeps a bar, counts and an ETA on the last lines of the terminal while
other lines scroll above it, and handles resizing and non-ASCII widths, which a hand-made `\\r` line did
badly. Nothing a solution controls is shown here: only our file names and counts.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from .eta import Estimate, Planned

PLAIN_EVERY = 10.0  # seconds between plain progress lines
LABEL_WIDTH = 48  # characters of the current solution's path on the live display (its end is kept)
ETA_EVERY = 0.5  # seconds between two estimates on the live display


class Progress:
    """Counts of tests and solutions done, the solution being graded, and an ETA."""

    def __init__(self, tests: int, solutions: int, live: bool | None = None, every: float = PLAIN_EVERY,
                 stream=None, plan: list[Planned] | None = None, workers: int = 1, clock=time.monotonic):
        """`plan`: the solutions in the order they are graded, with their record in the history (or
        later: planned()); without it, the time left is the run's pace so far over the tests left."""
        self.tests, self.solutions = tests, solutions
        self.tests_done = self.solutions_done = 0
        self.current = ""
        self.clock = clock
        self.started = clock()
        self.workers = workers
        self.estimate = self._estimate(plan) if plan else None
        self._before_plan: list[tuple[str, float]] | None = [] if plan is None else None  # tests done so far
        self._eta, self._eta_at = "", None
        self.every = every
        self.stream = stream or sys.stderr
        self.live = sys.stdout.isatty() and sys.stderr.isatty() if live is None else live
        self._display = None
        self._lock = threading.Lock()  # the pool's threads report tests while the ticker asks for the time left
        self._ticker = None

    def __enter__(self) -> Progress:
        if self.live:
            self._display = _live_display()
            self._display.start()
            self._task = self._display.add_task("starting", total=self.tests, solutions=self._solutions_text(), eta="-")
        else:
            self._ticker = Ticker(self.plain_line, self.every, self.stream)
        return self

    def __exit__(self, *exc) -> None:
        if self._display:
            self._display.stop()
        if self._ticker:
            self._ticker.stop()

    def test_done(self, solution: str) -> None:
        with self._lock:
            self.tests_done += 1
            self.current = solution
            if self.estimate:
                self.estimate.done(solution, self.clock())
            elif self._before_plan is not None:
                self._before_plan.append((solution, self.clock()))
        self._refresh()

    def planned(self, plan: list[Planned]) -> None:
        """The plan, given once some tests are done (a fresh run reads the history while its tests
        run): the estimate is as if it had had the plan from the start."""
        with self._lock:
            if self.estimate or not plan or self._before_plan is None:
                return
            self.estimate = self._estimate(plan)
            for solution, when in self._before_plan:
                self.estimate.done(solution, when)
            self._before_plan = None

    def _estimate(self, plan: list[Planned]) -> Estimate:
        from .eta import Estimate  # (with a plan only: a fresh run's comes while its tests run)

        return Estimate(plan, self.workers, self.started)

    def seconds_left(self) -> float | None:
        with self._lock:
            now = self.clock()
            if self.estimate:
                return self.estimate.left(now)
            return (self.tests - self.tests_done) * (now - self.started) / self.tests_done if self.tests_done else None

    def solution_done(self, line: str | None = None) -> None:
        """One more solution finished; `line` (ours, never a solution's text) is printed above the display."""
        self.solutions_done += 1
        if line is not None:
            if self._display:
                from rich.text import Text

                self._display.console.print(Text(line), highlight=False)
            else:
                print(line, flush=True)
        self._refresh()

    def plain_line(self) -> str:
        elapsed = self.clock() - self.started
        left = self.seconds_left()
        eta = f", about {_duration(left)} left" if left is not None else ""
        current = f", grading {self.current}" if self.current else ""
        return (f"judge: {self.tests_done}/{self.tests} tests, {self._solutions_text()}{current}, "
                f"{_duration(elapsed)} elapsed{eta}")

    def _solutions_text(self) -> str:
        return f"{self.solutions_done}/{self.solutions} solutions"

    def _refresh(self) -> None:
        if self._display:
            from rich.markup import escape

            label = self.current if len(self.current) <= LABEL_WIDTH else "..." + self.current[3 - LABEL_WIDTH:]
            now = self.clock()
            if self._eta_at is None or now - self._eta_at >= ETA_EVERY:
                left = self.seconds_left()
                self._eta, self._eta_at = _duration(left) if left is not None else "-", now
            self._display.update(self._task, completed=self.tests_done, description=escape(label),
                                 solutions=self._solutions_text(), eta=self._eta)


class Phases:
    """Progress of a command that works in phases, one after another (validate: a problem's proofs),
    on stderr: on a terminal, a live line (the phase, its bar and count, its time); otherwise a plain
    line every few seconds, `judge: validating SLUG: verify.py on every test, 3/41, 1m02s elapsed`,
    so that minutes of a setter's verify.py are never silent. What it names is ours (phases, slugs,
    the package's own program names), never a solution's output."""

    def __init__(self, subject: str, live: bool | None = None, every: float | None = None, stream=None,
                 clock=time.monotonic):
        self.subject = subject
        self.what, self.done, self.total = "starting", 0, None
        self.clock, self.started = clock, clock()
        self.every = PLAIN_EVERY if every is None else every
        self.stream = stream or sys.stderr
        self.live = sys.stdout.isatty() and sys.stderr.isatty() if live is None else live
        self._lock = threading.Lock()  # the pool's threads count the tests of a phase
        self._display = self._ticker = None

    def __enter__(self) -> Phases:
        if self.live:
            self._display = _phases_display()
            self._display.start()
            self._task = self._display.add_task(self._description(), total=None, count="")
        else:
            self._ticker = Ticker(self.plain_line, self.every, self.stream)
        return self

    def __exit__(self, *exc) -> None:
        if self._display:
            self._display.stop()
        if self._ticker:
            self._ticker.stop()

    def phase(self, what: str, total: int | None = None) -> None:
        """A phase begins: `total` steps, or None when it has no count (a generator's run)."""
        with self._lock:
            self.what, self.done, self.total = what, 0, total
        if self._display:  # a task of its own: its bar, count and time start again
            self._display.remove_task(self._task)
            self._task = self._display.add_task(self._description(), total=total, count=self._count())

    def advance(self) -> None:
        """One more step of the phase done."""
        with self._lock:
            self.done += 1
            count = self._count()
        if self._display:
            self._display.update(self._task, advance=1, count=count)

    def plain_line(self) -> str:
        with self._lock:
            count = f", {self._count()}" if self.total else ""
            return f"judge: {self.subject}: {self.what}{count}, {_duration(self.clock() - self.started)} elapsed"

    def _count(self) -> str:
        return f"{self.done}/{self.total}" if self.total else ""

    def _description(self) -> str:
        from rich.markup import escape

        return escape(f"{self.subject}: {self.what}")


class Ticker:
    """A plain line every `every` seconds on `stream` until stopped: progress off a terminal."""

    def __init__(self, line: Callable[[], str], every: float, stream):
        self._line, self._every, self._stream = line, every, stream
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._tick, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _tick(self) -> None:
        while not self._stop.wait(self._every):
            print(self._line(), file=self._stream, flush=True)


def _live_display():
    """rich's live display (rich is imported only for a terminal: a run into a pipe or a log never
    pays for it)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
    from rich.progress import Progress as LiveProgress

    return LiveProgress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("tests"),
        TextColumn("{task.fields[solutions]}"), TimeElapsedColumn(), TextColumn("ETA {task.fields[eta]}"),
        console=Console(file=sys.stdout), transient=True)


def _phases_display():
    """rich's live display of Phases, on stderr: gone when the phases end, before the findings print."""
    from rich.console import Console
    from rich.progress import BarColumn, TextColumn, TimeElapsedColumn
    from rich.progress import Progress as LiveProgress

    return LiveProgress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[count]}"),
                        TimeElapsedColumn(), console=Console(file=sys.stderr), transient=True)


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"
