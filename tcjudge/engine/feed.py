"""Where a pool's worker threads take their tests: the runs of one grading (Tests), or runs handed in
while others are graded, shared fairly between their owners (Feed: `judge serve`'s teams).

Both answer the pool's three questions: how many tests are left to hand out (qsize), the next test for
this worker thread (take), and a test to send ahead to its zygote before the answer to the one it runs
is read (take_ahead).
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import deque
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from .pool import SolutionRun, TestCallback
    from .results import GradeResult


class Tests:
    """The tests of a fixed list of runs: a grading's (Pool.grade). Each run's tests are handed out in
    order; a thread takes the next test of the first run that no other thread is in, and helps a run
    that has one only when every run left has: at -j2, two threads in one run that stops at its first
    failure ran the test after that failure too, to its end (issue 48: a submission that must time out
    timed out twice, 4 s each, in joinedsessions), and each thread kept a zygote of every run."""

    open = False  # nothing is handed in later: a worker that finds none left ends

    def __init__(self, runs: list[SolutionRun]):
        self._left = [(run, deque(range(len(run.tests)))) for run in runs]
        self._count = sum(len(run.tests) for run in runs)
        self._lock = threading.Lock()

    def qsize(self) -> int:
        return self._count

    def take(self, wait: bool = False) -> tuple[SolutionRun, int] | None:
        with self._lock:
            return self._next(None)

    def take_ahead(self, run: SolutionRun, workers: int) -> tuple[SolutionRun, int] | None:
        """The next test this thread would take once its test of `run` is done (kept for its next turn
        when it is another run's); never one of a grading's last tests at several workers: another
        thread may be idle to take it."""
        with self._lock:
            return self._next(run) if self._count >= workers else None

    def _next(self, own: SolutionRun | None) -> tuple[SolutionRun, int] | None:
        """The first run left that no thread but this one (in `own`) is in, else the first run left. The
        runs passed over each have a thread in them: at most one per worker."""
        chosen, index = None, 0
        while index < len(self._left):
            run, indices = self._left[index]
            if not indices:
                del self._left[index]
                continue
            # its tests in flight: handed out and not yet done (the pool counts run.pending down as each ends)
            if run.pending - len(indices) - (run is own) <= 0:
                chosen = run, indices
                break
            chosen = chosen or (run, indices)
            index += 1
        if chosen is None:
            return None
        self._count -= 1
        return chosen[0], chosen[1].popleft()


# A run gets a second thread only while each of its tests done so far took under this much wall time: a
# thread that helps a run finishes its test soon, and is free for a run handed in meanwhile (a test in
# its zygote is never taken back). A run whose test took longer (one that exceeds its time limit) keeps
# one thread: at -j 2, another team's submission finds the other one free (issue 47).
HELP_BELOW_MS = 250
# A run's thread turns to a run that waits with no thread and has had less of the workers' time, once it
# has worked this long on its run (Feed._turn_over): two teams' slow submissions on both threads of -j 2
# held them for minutes, and a third team's trivial one waited 470-564 s (breaker 54a). A thread moves
# between runs at the end of a test (never taking one back), and a move costs a zygote, hence not after
# every test.
TURN_SECONDS = 3.0
# A team's share of the workers' time is the time its tests took, halved every HALF_LIFE_SECONDS (Feed.load):
# counted per submission, teams that kept sending small ones had always a fresh one "least served", and
# another team's normal submission waited as long as they went on (breaker 54f: 168-294 s)
HALF_LIFE_SECONDS = 60.0
# A spare builder (Feed.take_build's `spare`) takes a run whose team has had less of the machine than every team
# whose compile has held a builder this long: four teams' compiles just under their bounds held every builder
# for ~120 s, and another team's C++ submission waited as long (breaker 55c F1)
SPARE_AFTER_SECONDS = 2.0


def _light_build(run: SolutionRun) -> bool:
    """Whether a run's build takes a moment (its language's `light_build`)."""
    from .. import languages

    try:
        return languages.for_path(run.solution).light_build
    except Exception:  # noqa: BLE001 - (a name of no language: its build says so, on a builder)
        return False


class FeedClosed(Exception):
    """The feed closed (the server stops) before a run handed in was graded."""


class _Entry:
    """A run handed in: whose it is (`share`), its next test to hand out, how many threads work on it."""

    def __init__(self, run: SolutionRun, share, on_test: TestCallback | None, order: int):
        self.run, self.share, self.on_test, self.order = run, share, on_test, order
        self.next = 0  # its next test to hand out
        self.workers = 0  # threads whose last test was one of its
        self.reported = 0  # tests whose result (or skip) came back
        self.quick: bool | None = None  # each test done so far under HELP_BELOW_MS (None: none done yet)
        self.error: BaseException | None = None  # raised by its on_test: its grade() raises it
        self.ready = True  # its program is built (a feed that builds apart: once a builder has built it)
        self.building = False
        self.build_started = 0.0  # when a builder took it (time.monotonic())
        self.light = False  # its build takes a moment (Python's): the light builder takes it too

    @property
    def left(self) -> int:
        return len(self.run.tests) - self.next


class Feed:
    """Runs handed in at any time (grade(), from any thread), their tests taken by a pool's worker
    threads (Pool.feed) until the feed closes. A thread keeps to its run while the run has tests left,
    unless others work on it too and it is slow, or another run waits without a thread (a worker
    serves one solution: moving costs a zygote). A thread that needs a run takes one that has no
    thread, else a quick one (HELP_BELOW_MS), the one with the fewest threads, then the one whose share has
    had least of the workers' time lately (load), then of the share served longest ago (one team's twenty submissions do
    not hold back another team's one), then the oldest; with none, it waits. So at -j N, N runs are graded at once,
    a lone quick run on every thread, and a run handed in while a slow one is graded finds a thread; a
    run's thread turns, after TURN_SECONDS on it, to a waiting run whose share has had less of it lately.

    `builds_apart`: a run's program is built by the pool's builder threads (take_build, built), and its
    tests are handed out once it is: a compile holds no test thread (breaker 54a: two teams' compiles
    that burn their 30 s of CPU held both threads of -j 2, and another team's trivial submission
    waited 21-28 s behind each pair)."""

    open = True  # a thread that finds no test waits for the next run handed in

    def __init__(self, builds_apart: bool = False):
        self.builds_apart = builds_apart
        self._changed = threading.Condition()
        self._entries: dict[int, _Entry] = {}  # id(run) -> its entry, until its last result came back
        self._on: dict[int, _Entry] = {}  # worker thread -> the entry of its last test
        self._since: dict[int, float] = {}  # worker thread -> when it took its first test of that entry
        self._served: dict[object, int] = {}  # share -> the turn when a run of it last got its first thread
        self._loads: dict[object, tuple[float, float]] = {}  # share -> (its decayed time on the workers, when)
        self._turns = itertools.count(1)
        self._order = itertools.count()  # runs in the order they were handed in
        self._closed = False

    def qsize(self) -> int:
        with self._changed:
            return sum(entry.left for entry in self._entries.values())

    def close(self) -> None:
        """Hand out nothing more: waiting threads end, and each grade() under way raises FeedClosed."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def grade(self, runs: list[SolutionRun], on_test: TestCallback | None = None, share=None) -> list[GradeResult]:
        """Hand in `runs` (of `share`) and wait for their results; `on_test` as Pool.grade's."""
        with self._changed:
            if self._closed:
                raise FeedClosed()
            entries = [_Entry(run, share, on_test, next(self._order)) for run in runs]
            for entry in entries:
                entry.ready = not self.builds_apart
                entry.light = self.builds_apart and _light_build(entry.run)
            self._entries.update((id(entry.run), entry) for entry in entries)
            self._changed.notify_all()
            while not self._closed and any(entry.reported < len(entry.run.tests) for entry in entries):
                self._changed.wait()
            for entry in entries:
                self._entries.pop(id(entry.run), None)
            if any(entry.reported < len(entry.run.tests) for entry in entries):
                raise FeedClosed()
        failed = next((entry.error for entry in entries if entry.error is not None), None)
        if failed is not None:
            raise failed
        return [entry.run.result() for entry in entries]

    def take(self, wait: bool = False) -> tuple[SolutionRun, int] | None:
        """This thread's next test; None when there is none now (`wait`: once the feed closes)."""
        me = threading.get_ident()
        with self._changed:
            while True:
                if self._closed:
                    return None
                entry = self._choose(self._on.get(me), me)
                if entry is not None:
                    return self._hand_out(me, entry)
                self._leave(me)
                if not wait:
                    return None
                self._changed.wait()

    def take_build(self, light_only: bool = False, spare: bool = False) -> SolutionRun | None:
        """A builder thread's next run to build (of the team that has had least of the machine lately:
        its tests' time and its compiles', those under way included; then the team served longest ago,
        then the oldest), waiting for one; None once the feed closes. `light_only`: the light builder's,
        a run whose build takes a moment (a Python submission waited 75-120 s for a builder while four
        teams' compiles, each just under its bounds, held all of them: breaker 55c F1). `spare`: a spare
        builder's, a run whose team has had less of the machine than every team whose compile has held a
        builder for SPARE_AFTER_SECONDS (a C++ one waited as long there)."""
        with self._changed:
            while not self._closed:
                unbuilt = [entry for entry in self._entries.values() if not entry.ready and not entry.building
                           and (entry.light or not light_only) and (not spare or self._outweighed(entry))]
                if unbuilt:
                    entry = min(unbuilt, key=lambda entry: (self._machine_load(entry.share),
                                                            self._served.get(entry.share, -1), entry.order))
                    entry.building, entry.build_started = True, time.monotonic()
                    return entry.run
                building = any(entry.building and not entry.ready for entry in self._entries.values())
                self._changed.wait(SPARE_AFTER_SECONDS / 4 if spare and building else None)  # (a spare's test moves with time)
            return None

    def built(self, run: SolutionRun) -> None:
        """`run`'s program is built (or failed to build): its tests may be handed out, and the build's
        time counts in its team's load."""
        with self._changed:
            entry = self._entries.get(id(run))
            if entry is not None:
                entry.ready = True
                if entry.building:
                    spent = (time.monotonic() - entry.build_started) * 1000
                    self._loads[entry.share] = (self.load(entry.share) + spent, time.monotonic())
                self._changed.notify_all()

    def _machine_load(self, share) -> float:
        """The share's load, and the time its compiles under way have taken so far (ms)."""
        now = time.monotonic()
        return self.load(share) + sum((now - entry.build_started) * 1000 for entry in self._entries.values()
                                      if entry.share == share and entry.building and not entry.ready)

    def _outweighed(self, waiting: _Entry) -> bool:
        """Whether `waiting`'s team has had less of the machine than every team whose compile has taken
        SPARE_AFTER_SECONDS so far (and there is such a compile)."""
        now = time.monotonic()
        long = {entry.share for entry in self._entries.values() if entry.building and not entry.ready
                and now - entry.build_started >= SPARE_AFTER_SECONDS}
        mine = self._machine_load(waiting.share)
        return bool(long) and waiting.share not in long and all(mine < self._machine_load(share) for share in long)

    def take_ahead(self, run: SolutionRun, workers: int) -> tuple[SolutionRun, int] | None:
        """The next test of `run` when this thread would take it next anyway (never another run's: held
        by a thread busy with a long test, it would wait for that test)."""
        me = threading.get_ident()
        with self._changed:
            entry = self._choose(self._on.get(me), me)
            if self._closed or entry is None or entry.run is not run:
                return None
            return self._hand_out(me, entry)

    def on_test(self, run: SolutionRun, index: int, result) -> None:
        """The pool's on_test: the run's own callback, and its end counted (a failing callback fails
        its own run's grade(), never the pool's other runs)."""
        with self._changed:
            entry = self._entries.get(id(run))
        if entry is None:
            return
        if entry.on_test is not None and entry.error is None:
            try:
                entry.on_test(run, index, result)
            except Exception as err:  # noqa: BLE001 - raised by that run's grade()
                entry.error = err
        with self._changed:
            entry.reported += 1
            if result.verdict is not None:
                entry.quick = entry.quick is not False and result.wall_ms < HELP_BELOW_MS
                self._loads[entry.share] = (self.load(entry.share) + result.wall_ms, time.monotonic())
            self._changed.notify_all()  # (a run done, or one that a waiting thread may help now)

    def _choose(self, current: _Entry | None, me: int) -> _Entry | None:
        """The entry this thread takes its next test from, None for none (see the class)."""
        waiting = [entry for entry in self._entries.values() if entry.left and entry.ready]
        if current is not None and current.left and (
                current.workers == 1 or (current.quick and all(entry.workers for entry in waiting))) \
                and not self._turn_over(current, me, waiting):
            return current
        free = [entry for entry in waiting if entry is not current and (entry.workers == 0 or entry.quick)]
        return min(free, key=lambda entry: (entry.workers, self.load(entry.share), self._served.get(entry.share, -1),
                                            entry.order), default=None)

    def load(self, share) -> float:
        """The time the share's tests took on the workers, in ms, halved every HALF_LIFE_SECONDS since."""
        kept, when = self._loads.get(share, (0.0, 0.0))
        return kept * 0.5 ** ((time.monotonic() - when) / HALF_LIFE_SECONDS) if kept else 0.0

    def _turn_over(self, current: _Entry, me: int, waiting: list[_Entry]) -> bool:
        """Whether this thread, TURN_SECONDS on its run, leaves it for a run with no thread whose share (team)
        has had less of the workers' time lately (load: the least served first; a trivial submission sent
        while slow ones are graded takes the next worker to end a test, and keeps it to its end; breaker
        54d: served in turns, one that took over 3 s under load, or whose tests took over 0.25 s there,
        waited a whole round, 10-37 s beside three to six slow teams, 171 s for a normal one beside more)."""
        if time.monotonic() - self._since.get(me, 0.0) < TURN_SECONDS:
            return False
        mine = self.load(current.share)
        return any(entry.workers == 0 and self.load(entry.share) < mine for entry in waiting)

    def _leave(self, me: int) -> None:
        """This thread works on no run now."""
        previous = self._on.pop(me, None)
        if previous is not None:
            previous.workers -= 1

    def _hand_out(self, me: int, entry: _Entry) -> tuple[SolutionRun, int]:
        if self._on.get(me) is not entry:
            self._leave(me)
            if entry.workers == 0:
                self._served[entry.share] = next(self._turns)
            entry.workers += 1
            self._on[me], self._since[me] = entry, time.monotonic()
        entry.next += 1
        return entry.run, entry.next - 1
