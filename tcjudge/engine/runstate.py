"""The state of grading one solution (SolutionRun): its tests' results as they come in, shared by
the pool's worker threads (engine/pool.py) and a cluster client's (cluster/client.py), and the grade
they make so far."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

from ..problems.format import Problem, TestCase
from ..record import field, record
from ..verdicts import Verdict
from .results import GradeResult, TestResult

if TYPE_CHECKING:  # (a stored solution's: imported where its runs are chosen, not to grade a file)
    from ..problems.expectations import Expectation
    from ..problems.scoring import ScoreRange


@record
class SolutionRun:
    """The state of grading one solution: shared by the worker threads, guarded by `lock`."""

    problem: Problem
    solution: Path
    tests: list[TestCase]
    stop_on_failure: bool
    expected: Expectation | None = None  # a stored solution's: what its folder (or package) expects
    expected_score: ScoreRange | None = None  # a stored solution's score must lie here too (scoring packages)
    results: list[TestResult | None] = field(default_factory=list)
    load_outcome: tuple[Verdict, str] | None = None
    load_checked: bool = False
    program: dict | None = None  # a compiled language's program for the zygote (see tcjudge.languages)
    load_fields: dict = field(default_factory=dict)  # the rest of the zygote's load request (Language.load_fields)
    built: bool = False
    verdicts_only: bool = False  # contest mode (--hide-expected): no expected value, input or output shown
    first_failure: int | None = None
    pending: int = 0
    baseline_mib: float = 0.0
    graded_on: str | None = None  # the machine(s) that graded it, when not this one (cluster/client.py)
    # graded under a higher CPU bound than the limit it is judged at (a submission that must time out,
    # run to the margin of a computed limit): a test over this many ms fails there, and a stopping run ends
    stops_above_ms: float | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self):
        self.results = [None] * len(self.tests)
        self.pending = len(self.tests)
        grading = self.problem.grading  # (not a field: a replace() of this run has its own)
        self.unread = grading.unread() if grading is not None else None

    @property
    def key(self) -> tuple:
        return (self.problem.slug, str(self.solution))

    @property
    def answers(self) -> bool:
        """A submit-answer submission: a folder of answer files, judged without running anything."""
        return self.problem.kind.answers and self.solution.is_dir()

    def skips(self, index: int) -> bool:
        if self.load_outcome is not None:
            return True
        if self.unread is not None and self.unread.skips(self.tests[index].name):
            return True
        return self.stop_on_failure and self.first_failure is not None and index > self.first_failure

    def record(self, index: int, result: TestResult) -> None:
        """Keep a test's result (from a local worker or a cluster task); the earliest failure decides
        where a stopping run ends."""
        with self.lock:
            self.results[index] = result
            failed = result.verdict is not Verdict.AC or (
                self.stops_above_ms is not None and (result.cpu_ms or 0) > self.stops_above_ms)
            if failed and (self.first_failure is None or index < self.first_failure):
                self.first_failure = index
            if failed and self.unread is not None:
                self.unread.reject(self.tests[index].name)
            if result.verdict is Verdict.CE and self.load_outcome is None:  # a program that does not compile
                self.load_outcome = (Verdict.CE, result.message)

    def counted(self) -> list[TestResult | None]:
        """The results that count so far, by index (None: not run, or not yet). With stop_on_failure,
        tests after the first failure count as not run even when a parallel worker had already run
        them, and so do tests that a scoring problem's grading will not read: every figure is then the
        same at any -j, while it is graded as at its end."""
        with self.lock:
            results, failure = list(self.results), self.first_failure
        if self.stop_on_failure and failure is not None:
            results[failure + 1:] = [None] * (len(results) - failure - 1)
        if self.unread is not None:  # (likewise a test its group will not read: on_reject: break)
            with self.lock:
                results = [None if self.unread.skips(test.name) else result for test, result in zip(self.tests, results)]
        return results

    def result(self) -> GradeResult:
        """The grade so far (its tests: counted())."""
        tests = [r or TestResult(t.name, None) for r, t in zip(self.counted(), self.tests)]
        compile_message = ""
        if self.load_outcome is not None:
            verdict, message = self.load_outcome
            if verdict is Verdict.CE:
                compile_message = message
            else:  # TLE or MLE while loading: every test would meet the same fate
                tests[0] = TestResult(tests[0].name, verdict, message=message)
        return GradeResult(self.problem, self.solution, tests, compile_message, self.baseline_mib, self.expected,
                           self.expected_score, self.graded_on)
