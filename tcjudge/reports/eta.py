"""How long a grading run has left, from what the history knows and what the run has shown so far.

The pace of the last minute (what the progress line used before) swings with whichever solution is
being graded: on roxor it read 1:32, 7:34, 11:19 and 2:07 for a run that took 1:51, because one
stored TLE solution costs more than the ten others together. Here each solution's remaining tests
are costed one by one:

- a solution the history has graded before: what each of its remaining tests cost in that earlier
  run (tests run in order, so the remaining ones are its last; History.plan: the CPU time, times
  how much longer the solution's tests took in wall time than the run's median test), scaled into
  this run's time;
- one whose record lacks tests (a `check` stopped it at its first failure) or that has none: each
  missing test guessed from the records of the problem's solutions (guessed_costs), its own pace
  taking over after a couple of its tests (a guess is right on the whole, not test by test: it
  is left out of the fit of the scale and of the last minute's pace); with no record of the problem at all, its own cost per test so far,
  or, before its first test, the median solution's;
- the scale is fitted as the run goes: the time each solution has taken (the time between two
  finished tests goes to the solution whose test finished), against its recorded cost and its
  count of tests: elapsed = a x recorded + b x tests. a starts at 1/workers, b at a few
  milliseconds per test (the judge's own cost around a test), and the run's own figures take over as
  they come, so that neither a run of fast tests nor one slow test misleads it;
- each solution's first test is set apart: it also pays for its start (compiling a C++ or Java
  solution, loading a Python one) and, after a fast solution, for waiting on the other worker; a
  solution yet to start adds the median start of those of its language so far.

A solution whose tests now cost more or less than recorded (its content changed) is followed by its
own figures as they come in; and the whole is corrected by the last minute's pace against each
solution's own, since the machine's load changes under a run (on the shared dev machine a TLE test
took 4.3 s of a run in one minute and 1.9 s a few minutes later). tests/test_reports.py simulates
runs and holds the estimate within 30% of the truth once a fifth of the run is done; a load that
changes mid-run, which no estimate can foresee, it follows within about a minute.
"""

from __future__ import annotations

from collections import deque

from ..record import field, record

PRIOR_OVERHEAD = 0.004  # seconds of the judge's own work per test, before the run shows its own
PRIOR_RECORDED = 2.0  # the prior on a counts as much as this many seconds of recorded time
PRIOR_TESTS = 20  # the prior on b counts as much as this many tests
OWN_WEIGHT = 10  # after this many of its tests, a solution's own figures count as much as its record
NEW_WEIGHT = 2  # ... and, for a solution never graded before, as much as the median solution's pace
RECENT, RECENT_TESTS, RECENT_MOST = 60.0, 20, 500  # the last minute's pace (20 to 500 tests) corrects the fit
PACE_RANGE = (1 / 3, 3.0)
SHRINK = 5  # a guessed solution's ratio to the typical one counts half after this many of its tests
TIMED_OUT_SHARE = 0.6  # of the time limit: the expected cost of a test after a solution's first TLE (0.61 measured)


@record
class Planned:
    """A solution about to be graded: the name the progress sees for it (its path), its test count,
    and what each of its tests cost the last time the history saw it, in seconds (None: never)."""

    name: str
    tests: int
    costs: list[float] | None = None
    guessed: bool = False  # some costs are guessed (guessed_costs), not recorded: its own pace takes over sooner


def guessed_costs(own: list[float | None], typical: list[float | None], limit: float,
                  timed_out: int | None = None) -> list[float] | None:
    """Each test's cost for a solution whose record lacks some tests (None: `check` stopped it at its
    first failure, or it was never graded): the typical solution's cost of that test (the median of
    the problem's records), times how much slower than typical the solution was on the tests it did
    run (trusted as they come: after SHRINK tests, half), at most `limit` (the time limit: a test
    past it is stopped there). If it ran out of time on test `timed_out`, every later test costs
    at least TIMED_OUT_SHARE of the limit: after their first TLE, the six stored TLE solutions' later
    tests cost 0.23 to 0.90 of the limit in a full report, 0.61 over all their tests (a test that
    ends MLE has run to the limit too: roxor's are most of its cost), and which ones the typical
    solution's costs do not tell (roxor's are as cheap as its first); the run then follows the
    solution's own pace. None: nothing to go on."""
    known = [usual for usual in typical if usual is not None] or [mine for mine in own if mine is not None]
    if not known:
        return None
    fallback = sum(known) / len(known)
    usual = [fallback if cost is None else cost for cost in typical]
    both = [(mine, usual[i]) for i, mine in enumerate(own) if mine is not None and i != timed_out]
    usual_total = sum(u for _, u in both)
    raw = sum(mine for mine, _ in both) / usual_total if usual_total > 0 else 1.0
    ratio = 1 + len(both) / (len(both) + SHRINK) * (raw - 1)
    after = len(own) if timed_out is None else timed_out
    return [mine if mine is not None else
            max(TIMED_OUT_SHARE * limit, min(usual[i] * ratio, limit)) if i > after else min(usual[i] * ratio, limit)
            for i, mine in enumerate(own)]


@record
class _Solution:
    plan: Planned
    done: int = 0
    first: float = 0.0  # seconds of the run until its first test was done: its start (a compile) and that test
    spent: float = 0.0  # seconds of the run attributed to its later tests
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

    @property
    def doubt(self) -> float:
        """After how many of its tests its own pace counts as much as its costs: sooner when they are guessed."""
        return NEW_WEIGHT if self.plan.guessed else OWN_WEIGHT

    @property
    def kind(self) -> str:
        """What its start costs depend on: its language, by the file's extension."""
        return self.plan.name.rsplit(".", 1)[-1]

    @property
    def later(self) -> int:
        """Tests done after the first."""
        return max(self.done - 1, 0)

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
        seconds, self.last = now - self.last, now
        if solution is None:
            self.unplanned += 1
            return
        solution.done += 1
        if solution.done == 1:
            solution.first = seconds
            return
        solution.spent += seconds
        if solution.known and not solution.plan.guessed:  # a guess is right on the whole, not test by test
            self.recent.append((now, seconds, solution, solution.done - 1))
            while len(self.recent) > RECENT_MOST or (len(self.recent) > RECENT_TESTS and self.recent[0][0] < now - RECENT):
                self.recent.popleft()

    def scale(self) -> tuple[float, float]:
        """(a, b): elapsed seconds per recorded second and per test, fitted by least squares on the
        solutions with a record (not a guess) and tests done after their first, with the priors as two
        more observations."""
        priors = (1 / self.workers, PRIOR_OVERHEAD / self.workers)
        rows = [((PRIOR_RECORDED, 0.0), priors[0] * PRIOR_RECORDED), ((0.0, PRIOR_TESTS), priors[1] * PRIOR_TESTS)]
        rows += [((s.recorded(1, s.done), s.later), s.spent) for s in self.solutions.values()
                 if s.known and not s.plan.guessed and s.later]
        a, b = _least_squares(rows)
        return max(a, priors[0] / 10), max(b, 0.0)

    def ratio(self, s: _Solution, a: float, b: float, doubt: float | None = None) -> float:
        """How much slower than its record a solution runs so far, trusted as its time comes: its
        record counts as `doubt` (by default its own) of its average tests more. Counted in seconds,
        not tests, so that its first, cheapest tests (or the wait for the other worker to finish
        the solution before) cannot swing it: in a real report, two tests of a TLE solution's
        cheap start once tripled the estimate."""
        doubt = s.doubt if doubt is None else doubt
        recorded = a * s.recorded(1, s.done) + b * s.later
        if not s.later or recorded <= 0:
            return 1.0
        prior = doubt * (a * s.recorded(0) + b * s.plan.tests) / s.plan.tests
        return (s.spent + prior) / (recorded + prior)

    def pace(self, a: float, b: float) -> float:
        """The last minute against each solution's own pace over the run so far: its seconds over what
        its tests cost at that pace (so that a solution slower than its record is not taken for a
        slower machine). The machine's load changes under a run: on the dev machine a TLE test took
        4.3 s of the run in one minute and 1.9 s a few minutes later."""
        if len(self.recent) < RECENT_TESTS:
            return 1.0
        spent = expected = 0.0
        for _, seconds, s, index in self.recent:
            spent += seconds
            expected += (a * s.recorded(index, index + 1) + b) * self.ratio(s, a, b, 0)
        return min(max(spent / expected, PACE_RANGE[0]), PACE_RANGE[1]) if expected > 0 else 1.0

    def typical(self, a: float, b: float) -> float | None:
        """Seconds per test of a solution never graded before, until it shows its own: the median
        solution's so far (a median: one TLE solution must not make every new one look slow)."""
        paces = sorted(s.spent / s.later for s in self.solutions.values() if s.later)
        if not paces:
            paces = sorted(a * s.recorded(0) / s.plan.tests + b for s in self.solutions.values()
                           if s.known and s.plan.tests)
        return paces[len(paces) // 2] if paces else None

    def starts(self, a: float, b: float) -> dict[str, float]:
        """Each language's start (compiling or loading a solution), from the solutions started so
        far: the median of how much longer their first test took than their later ones. A median:
        the first test of a slow solution after a fast one also waits for the other worker."""
        seen: dict[str, list[float]] = {}
        for s in self.solutions.values():
            if s.later:
                seen.setdefault(s.kind, []).append(max(s.first - s.spent / s.later, 0.0))
        return {kind: sorted(values)[len(values) // 2] for kind, values in seen.items()}

    def left(self, now: float) -> float | None:
        a, b = self.scale()
        typical, starts = self.typical(a, b), self.starts(a, b)
        total = 0.0
        for s in self.solutions.values():
            left = s.plan.tests - s.done
            if left <= 0:
                continue
            if s.known:
                expected = (a * s.recorded(s.done) + b * left) * self.ratio(s, a, b)
            elif typical is None:
                return None
            elif s.later:
                weight = s.later / (s.later + NEW_WEIGHT)
                expected = left * (weight * s.spent / s.later + (1 - weight) * typical)
            else:
                expected = left * typical
            total += expected + (0.0 if s.done else starts.get(s.kind, 0.0))
        return total * self.pace(a, b)


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
