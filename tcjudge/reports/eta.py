"""How long a grading run has left, from what the history knows and what the run has shown so far.

The pace of the last minute (what the progress line used before) swings with whichever solution is
being graded: on roxor it read 1:32, 7:34, 11:19 and 2:07 for a run that took 1:51, because one
stored TLE solution costs more than the ten others together. Here each solution's remaining tests
are costed one by one:

- a solution the history has graded before: the CPU time of each of its remaining tests in that
  earlier run (tests run in order, so the remaining ones are its last), scaled into this run's time
  (CPU, as a test's wall time swings with the machine's load when it ran: from 3.6x to 8.8x its CPU
  time, quarter by quarter, for roxor's TLE solution in one run on the busy dev machine);
- one it has not: its own cost per test so far, or, before its first test, the median solution's;
- the scale is fitted as the run goes: the time each solution has taken (the time between two
  finished tests goes to the solution whose test finished), against its recorded CPU time, its
  count of tests and its start: elapsed = a x recorded CPU + b x tests + c (compiling a C++ or Java
  solution, loading a Python one). a starts at 1/workers, b at a few milliseconds per test (the
  judge's own cost around a test) and c at 0.1 s, and the run's own figures take over as they come,
  so that neither a run of fast tests, nor one slow test, nor a compile misleads it.

A solution whose tests now cost more or less than recorded (its content changed) is followed by its
own figures as they come in; and the whole is corrected by the last minute's pace against the fit,
since the machine's load changes under a run (on the shared dev machine a TLE test took 4.3 s of a
run in one minute and 1.9 s a few minutes later). tests/test_reports.py simulates runs and holds the estimate within 30%
of the truth once a fifth of the run is done.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

PRIOR_OVERHEAD = 0.004  # seconds of the judge's own work per test, before the run shows its own
PRIOR_WALL = 2.0  # the prior on a counts as much as this many seconds of recorded CPU time
PRIOR_TESTS = 20  # the prior on b counts as much as this many tests
PRIOR_START = 0.1  # seconds to start grading a solution (load or compile it), before the run shows its own
PRIOR_STARTS = 2  # the prior on c counts as much as this many solutions started
OWN_WEIGHT = 10  # after this many of its tests, a solution's own figures count as much as its record
RECENT, RECENT_TESTS, RECENT_MOST = 60.0, 20, 500  # the last minute's pace (20 to 500 tests) corrects the fit
PACE_RANGE = (1 / 3, 3.0)
NEW_WEIGHT = 2  # ... and, for a solution never graded before, as much as the run's pace so far


@dataclass
class Planned:
    """A solution about to be graded: the name the progress sees for it, its test count, and the
    CPU seconds each of its tests took the last time the history saw it (None: never)."""

    name: str
    tests: int
    costs: list[float] | None = None


@dataclass
class _Solution:
    plan: Planned
    done: int = 0
    spent: float = 0.0  # seconds of the run attributed to it
    remaining: list[float] = field(default_factory=list)  # suffix sums of costs: remaining[i] = sum(costs[i:])

    def __post_init__(self):
        costs = self.plan.costs or []
        total, self.remaining = 0.0, [0.0] * (len(costs) + 1)
        for index in range(len(costs) - 1, -1, -1):
            total += costs[index]
            self.remaining[index] = total

    @property
    def known(self) -> bool:
        return self.plan.costs is not None

    def recorded(self, start: int, end: int | None = None) -> float:
        """Recorded seconds of tests start..end-1."""
        stop = len(self.remaining) - 1 if end is None else min(end, len(self.remaining) - 1)
        start = min(start, stop)
        return self.remaining[start] - self.remaining[stop]


class Estimate:
    """Feed it `done(name, now)` for every finished test; `left(now)` is the seconds left, or None."""

    def __init__(self, plan: list[Planned], workers: int, started: float):
        self.solutions = {p.name: _Solution(p) for p in plan}
        self.workers = max(1, workers)
        self.started = self.last = started
        self.unplanned = 0  # tests done of solutions the plan did not name
        self.recent: deque[tuple[float, float, _Solution, int]] = deque()  # (time, seconds, solution, its test)

    def done(self, name: str, now: float) -> None:
        solution = self.solutions.get(name)
        if solution is None:
            self.unplanned += 1
        else:
            solution.done += 1
            solution.spent += now - self.last
            if solution.known:
                self.recent.append((now, now - self.last, solution, solution.done - 1))
                while len(self.recent) > RECENT_MOST or (len(self.recent) > RECENT_TESTS and self.recent[0][0] < now - RECENT):
                    self.recent.popleft()
        self.last = now

    def scale(self) -> tuple[float, float, float]:
        """(a, b, c): elapsed seconds per recorded CPU second, per test and per solution started (its
        compile or load), fitted by least squares on the solutions with a record and some tests
        done, with the priors as three more observations."""
        priors = (1 / self.workers, PRIOR_OVERHEAD / self.workers, PRIOR_START / self.workers)
        rows = [((PRIOR_WALL, 0.0, 0.0), priors[0] * PRIOR_WALL), ((0.0, PRIOR_TESTS, 0.0), priors[1] * PRIOR_TESTS),
                ((0.0, 0.0, PRIOR_STARTS), priors[2] * PRIOR_STARTS)]
        rows += [((s.recorded(0, s.done), s.done, 1.0), s.spent) for s in self.solutions.values() if s.known and s.done]
        a, b, c = _least_squares(rows)
        return max(a, priors[0] / 10), max(b, 0.0), max(c, 0.0)

    def pace(self, a: float, b: float, c: float) -> float:
        """The last minute against the fit: its seconds over what the fit (and each solution's own
        correction) says its tests cost. The machine's load changes under a run: on the dev machine
        a TLE test took 4.3 s of the run in one minute and 1.9 s a few minutes later."""
        if len(self.recent) < RECENT_TESTS:
            return 1.0
        spent = expected = 0.0
        for _, seconds, s, index in self.recent:
            spent += seconds
            expected += (a * s.recorded(index, index + 1) + b + (c if index == 0 else 0.0)) * self.ratio(s, a, b, c)
        return min(max(spent / expected, PACE_RANGE[0]), PACE_RANGE[1]) if expected > 0 else 1.0

    def ratio(self, s: _Solution, a: float, b: float, c: float) -> float:
        """How much slower than its record a solution runs so far, trusted as its tests come."""
        recorded = a * s.recorded(0, s.done) + b * s.done
        if not s.done or recorded <= 0:
            return 1.0
        return 1 + s.done / (s.done + OWN_WEIGHT) * (max(s.spent - c, 0.0) / recorded - 1)

    def typical(self, a: float, b: float, c: float) -> float | None:
        """Seconds per test of a solution never graded before, until it shows its own: the median
        solution's so far (a median: one TLE solution must not make every new one look slow)."""
        paces = sorted(max(s.spent - c, 0.0) / s.done for s in self.solutions.values() if s.done)
        if not paces:
            paces = sorted(a * s.recorded(0) / s.plan.tests + b for s in self.solutions.values()
                           if s.known and s.plan.tests)
        return paces[len(paces) // 2] if paces else None

    def left(self, now: float) -> float | None:
        a, b, c = self.scale()
        typical = self.typical(a, b, c)
        total = 0.0
        for s in self.solutions.values():
            left = s.plan.tests - s.done
            if left <= 0:
                continue
            own = max(s.spent - c, 0.0) / s.done if s.done else None  # seconds per test, its start aside
            if s.known:
                expected = (a * s.recorded(s.done) + b * left) * self.ratio(s, a, b, c)
            elif typical is None:
                return None
            elif own is not None:
                weight = s.done / (s.done + NEW_WEIGHT)
                expected = left * (weight * own + (1 - weight) * typical)
            else:
                expected = left * typical
            total += expected + (0.0 if s.done else c)
        return total * self.pace(a, b, c)


def _least_squares(rows: list[tuple[tuple[float, ...], float]]) -> list[float]:
    """The x minimising the sum of (row . x - y)^2: the normal equations, solved by elimination."""
    size = len(rows[0][0])
    matrix = [[sum(r[i] * r[j] for r, _ in rows) for j in range(size)] + [sum(r[i] * y for r, y in rows)]
              for i in range(size)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda k: abs(matrix[k][column]))
        matrix[column], matrix[pivot] = matrix[pivot], matrix[column]
        for k in range(size):
            if k != column and matrix[column][column]:
                factor = matrix[k][column] / matrix[column][column]
                matrix[k] = [x - factor * p for x, p in zip(matrix[k], matrix[column])]
    return [matrix[i][size] / matrix[i][i] for i in range(size)]
