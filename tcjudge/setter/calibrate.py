"""`judge.py calibrate`: a time limit from the stored solutions, as problemtools sets one: the slowest
accepted run (CPU time, the measure verdicts use) times a safety factor, rounded up to a round
number; with the margins as BAPCtools gives them (the slowest AC, the fastest TLE among the stored
TLE solutions, each solution's time being its slowest test, and how far apart they and the limit
are) and the warnings that say a limit is fragile: an accepted solution close to it, a solution
filed as TLE that would pass with a little more time, a limit far above what accepted code needs."""

from __future__ import annotations

import math
import re
from pathlib import Path

from ..engine.pool import Pool, SolutionRun

from ..engine.results import GradeResult
from ..errors import JudgeInputError
from ..problems.catalog import Catalog, display_path
from ..problems.expectations import UNTIMED
from ..protocol import SOURCE_LIMIT
from ..problems.format import Problem
from ..record import field, record, replace
from ..verdicts import Verdict

FACTOR = 3.0  # slowest accepted x FACTOR, like problemtools' time_multiplier
SENSITIVE = 1.5  # a TLE solution that passes at 1.5x the limit makes the limit sensitive
TIMEOUT = SENSITIVE ** 2  # TLE solutions are timed up to 2.25x the limit (BAPCtools' timeout)
FAR_ABOVE = 2.0  # a limit more than 2x what the factor asks for is far above the accepted solutions
MIN_LIMIT, MAX_LIMIT = 0.1, 60.0  # what problem.yaml accepts (format.py), in seconds
TIME_LIMIT_LINE = re.compile(r"^time_limit:.*$", re.MULTILINE)


@record
class Calibration:
    problem: Problem
    slowest_ms: float
    slowest_where: str
    limit: float  # the proposed limit, in seconds
    warnings: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)  # accepted solutions that do not pass: no sound limit
    in_force: float = 0.0  # the limit the TLE solutions were measured against (seconds)
    fastest_tle: FastestTle | None = None  # None: no stored TLE solution ran to the cap or passed under it
    tle_stored: int = 0


@record
class FastestTle:
    """The fastest stored TLE solution: its slowest test's CPU time; `capped` when that test was
    stopped at TIMEOUT x the limit (the solution is at least that slow)."""

    ms: float
    where: str
    capped: bool


def round_limit(seconds: float) -> float:
    """Up to a round number: tenths below 1 s, halves below 5 s, whole seconds above."""
    step = 0.1 if seconds < 1 else 0.5 if seconds < 5 else 1.0
    return min(MAX_LIMIT, max(MIN_LIMIT, round(math.ceil(seconds / step - 1e-9) * step, 1)))


def calibrate(catalog: Catalog, problem: Problem, jobs: int, factor: float | None = None,
              write: bool = False, source_limit: int = SOURCE_LIMIT) -> Calibration:
    """The limit: the slowest test of the solutions that bound it from below (ours: the accepted
    ones; a package's: as its format says, expectations.py) times `factor` rounded up to a round
    number, or for a package without `factor` its own rule (timing.py: its multiplier and resolution)."""
    stored = catalog.stored_solutions(problem.slug)
    lower = [(s, tests) for s in stored if (tests := s.expected.time_limit_tests("lower", problem.tests))]
    if not lower:
        raise JudgeInputError("no accepted solutions to calibrate with", catalog.solutions_folder(problem.slug))
    timing = problem.timing if factor is None else None
    factor = timing.ac_to_time_limit if timing else factor or FACTOR
    with Pool(jobs, source_limit=source_limit) as pool:
        results = pool.grade([SolutionRun(problem, s.path, tests, False, s.expected) for s, tests in lower])
    # a submission timed on some groups only (a rule of submissions.yaml) is judged on their times alone
    failures = [f"{display_path(r.solution)} is filed as {_filed(r.expected)} but gets {r.verdict}" for r in results
                if (not r.matched if len(r.tests) == len(problem.tests) else r.verdict in UNTIMED)]
    slowest_ms, where = max(((t.cpu_ms, f"{display_path(r.solution)}, test {t.name}")
                             for r in results for t in r.tests if t.verdict), default=(0.0, "none"))
    limit = timing.limit(slowest_ms / 1000) if timing else round_limit(slowest_ms / 1000 * factor)
    calibration = Calibration(problem, slowest_ms, where, limit, failures=failures)
    in_force = calibration.limit if write else problem.time_limit
    _warn_about(calibration, results, in_force, factor)
    tle = [(s, tests) for s in stored if (tests := s.expected.time_limit_tests("upper", problem.tests))]
    calibration.in_force, calibration.tle_stored = in_force, len(tle)
    if tle:
        generous = replace(problem, time_limit=min(MAX_LIMIT, in_force * TIMEOUT), tests=problem.tests)
        with Pool(jobs, source_limit=source_limit) as pool:
            tle_results = pool.grade([SolutionRun(generous, s.path, tests, True, s.expected) for s, tests in tle])
        _measure_tle(calibration, tle_results, in_force)
    if write and not failures:
        if problem.package:  # a package keeps its computed limit beside problem.yaml, as BAPCtools does
            (problem.path / ".timelimit").write_text(f"{calibration.limit:g}\n", encoding="utf-8")
        else:
            write_limit(problem.path / "problem.yaml", calibration.limit)
    return calibration


def _filed(expected) -> str:
    return "accepted" if expected.verdict is Verdict.AC else str(expected)


def _measure_tle(calibration: Calibration, results: list[GradeResult], limit: float) -> None:
    """The fastest TLE solution, each timed by its slowest test (run up to TIMEOUT x the limit and
    stopped at its first failure), and the warnings: one that fails otherwise (WA, RE...) says
    nothing about time; one that passes says the CPU time of its slowest test, the figure measured
    (what it would get at the limit follows from it: verdicts use CPU time)."""
    timed = []
    for result in results:
        ran = [t for t in result.tests if t.verdict is not None]
        slowest = max(ran, key=lambda t: t.cpu_ms, default=None)
        if result.verdict not in (Verdict.AC, Verdict.TLE):
            calibration.warnings.append(f"{display_path(result.solution)} (filed as TLE) gets {result.verdict} at "
                                        f"{TIMEOUT:g}x the {limit:g} s limit: not timed")
            continue
        if slowest is None:
            continue
        if result.verdict is Verdict.AC and (warning := _passing_tle(slowest, limit)):
            calibration.warnings.append(f"{display_path(result.solution)} (filed as TLE) {warning}")
        timed.append(FastestTle(slowest.cpu_ms, f"{display_path(result.solution)}, test {slowest.name}",
                                result.verdict is Verdict.TLE))
    calibration.fastest_tle = min(timed, key=lambda f: (f.capped, f.ms), default=None)


def _passing_tle(slowest, limit: float) -> str:
    """What a TLE solution that passed at TIMEOUT x the limit says of the limit: nothing when it needs
    more than SENSITIVE x the limit."""
    took = f"{slowest.cpu_ms:.0f} ms CPU on {slowest.name}, its slowest test"
    if slowest.cpu_ms <= limit * 1000:
        return f"passes at the {limit:g} s limit ({took}): it is not a TLE solution, or the limit is too high"
    if slowest.cpu_ms <= limit * SENSITIVE * 1000:
        return (f"needs x{slowest.cpu_ms / (limit * 1000):.3g} the {limit:g} s limit ({took}), within "
                f"{SENSITIVE:g}x of it: the limit is sensitive")
    return ""


def _warn_about(calibration: Calibration, results: list[GradeResult], limit: float, factor: float) -> None:
    for result in results:
        slowest = result.slowest
        if slowest and slowest.cpu_ms / 1000 > limit / 2:
            calibration.warnings.append(f"{display_path(result.solution)} uses {slowest.cpu_ms:.0f} ms on "
                                        f"{slowest.name}, more than half the {limit:g} s limit")
    needed = calibration.slowest_ms / 1000 * factor
    if limit > FAR_ABOVE * max(needed, MIN_LIMIT):
        calibration.warnings.append(f"the {limit:g} s limit is far above the slowest accepted run "
                                    f"({calibration.slowest_ms:.1f} ms): slow wrong approaches may pass")


def write_limit(spec_path: Path, seconds: float) -> None:
    """Set time_limit in problem.yaml, keeping every other line as it is."""
    text = spec_path.read_text(encoding="utf-8")
    line = f"time_limit: {seconds:g}"
    if TIME_LIMIT_LINE.search(text):
        text = TIME_LIMIT_LINE.sub(line, text, count=1)
    else:
        text = text.rstrip("\n") + f"\n{line}\n"
    spec_path.write_text(text, encoding="utf-8")
