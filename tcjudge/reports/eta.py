"""How long a grading run has left, from what the history knows and what the run has shown so far.

The pace of the last minute (what the progress line used before) swings with whichever solution is
being graded: on roxor it read 1:32, 7:34, 11:19 and 2:07 for a run that took 1:51, because one
stored TLE solution costs more than the ten others together. Here each solution's remaining tests
are costed one by one:

- a solution the history has graded before: the wall time of each of its remaining tests in that
  earlier run (tests run in order, so the remaining ones are its last), scaled into this run's time;
- one it has not: its own cost per test so far, or, before its first test, the median solution's;
- the scale is fitted as the run goes: the time each solution has taken (the time between two
  finished tests goes to the solution whose test finished), against its recorded wall time and its
  count of tests: elapsed = a x recorded wall + b x tests. a starts at 1/workers and b at a few
  milliseconds per test (the judge's own cost around a test), and the run's own figures take over as
  they come, so that neither a run of fast tests nor one slow test misleads it.

A solution whose tests now cost more or less than recorded (its content changed) is followed by its
own figures as they come in. tests/test_reports.py simulates runs and holds the estimate within 30%
of the truth once a fifth of the run is done.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PRIOR_OVERHEAD = 0.004  # seconds of the judge's own work per test, before the run shows its own
PRIOR_WALL = 2.0  # the prior on a counts as much as this many seconds of recorded wall time
PRIOR_TESTS = 20  # the prior on b counts as much as this many tests
OWN_WEIGHT = 10  # after this many of its tests, a solution's own figures count as much as its record
NEW_WEIGHT = 2  # ... and, for a solution never graded before, as much as the run's pace so far


@dataclass
class Planned:
    """A solution about to be graded: the name the progress sees for it, its test count, and the
    seconds of wall time each of its tests took the last time the history saw it (None: never)."""

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
        """Recorded wall seconds of tests start..end-1."""
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

    def done(self, name: str, now: float) -> None:
        solution = self.solutions.get(name)
        if solution is None:
            self.unplanned += 1
        else:
            solution.done += 1
            solution.spent += now - self.last
        self.last = now

    def scale(self) -> tuple[float, float]:
        """(a, b): elapsed seconds per recorded wall second and per test, fitted by least squares on
        the solutions with a record and some tests done, with the priors as two more observations."""
        a0, b0 = 1 / self.workers, PRIOR_OVERHEAD / self.workers
        rows = [(PRIOR_WALL, 0.0, a0 * PRIOR_WALL), (0.0, PRIOR_TESTS, b0 * PRIOR_TESTS)]
        rows += [(s.recorded(0, s.done), s.done, s.spent) for s in self.solutions.values() if s.known and s.done]
        sww = sum(w * w for w, _, _ in rows)
        swn = sum(w * n for w, n, _ in rows)
        snn = sum(n * n for _, n, _ in rows)
        swy = sum(w * y for w, _, y in rows)
        sny = sum(n * y for _, n, y in rows)
        det = sww * snn - swn * swn
        a, b = (swy * snn - sny * swn) / det, (sny * sww - swy * swn) / det
        if a <= 0 or b <= 0:  # a fit that says tests cost nothing: keep the part that is sure
            a, b = max(a, a0 / 10), max(b, 0.0)
        return a, b

    def typical(self, a: float, b: float) -> float | None:
        """Seconds per test of a solution never graded before, until it shows its own: the median
        solution's so far (a median: one TLE solution must not make every new one look slow)."""
        paces = sorted(s.spent / s.done for s in self.solutions.values() if s.done)
        if not paces:
            paces = sorted(a * s.recorded(0) / s.plan.tests + b for s in self.solutions.values()
                           if s.known and s.plan.tests)
        return paces[len(paces) // 2] if paces else None

    def left(self, now: float) -> float | None:
        a, b = self.scale()
        typical = self.typical(a, b)
        total = 0.0
        for s in self.solutions.values():
            left = s.plan.tests - s.done
            if left <= 0:
                continue
            own = s.spent / s.done if s.done else None
            if s.known:
                expected = a * s.recorded(s.done) + b * left
                if own is not None:  # followed by its own figures as they come
                    recorded = a * s.recorded(0, s.done) + b * s.done
                    ratio = s.spent / recorded if recorded > 0 else 1.0
                    expected *= 1 + s.done / (s.done + OWN_WEIGHT) * (ratio - 1)
            elif typical is None:
                return None
            elif own is not None:
                weight = s.done / (s.done + NEW_WEIGHT)
                expected = left * (weight * own + (1 - weight) * typical)
            else:
                expected = left * typical
            total += expected
        return total
