"""The results of grading: one test's (TestResult) and one solution's (GradeResult), and the
contest-mode view of a test that shows nothing of the expected value or the input.

Everything a solution controls is made safe once, when a result is made.
"""

from __future__ import annotations

import functools
from pathlib import Path

from typing import TYPE_CHECKING

from ..problems.format import Problem
from ..record import record, replace
from ..text import format_score, safe_lines, safe_text
from ..verdicts import Verdict

if TYPE_CHECKING:  # (a scoring problem's and a stored solution's: imported with what uses them)
    from ..problems.expectations import Expectation
    from ..problems.scoring import ScoreRange, Scored

COMPILE_LINES = 40  # lines of a compiler's messages kept
OUTPUT_KEPT = 2048  # characters of a failing test's printed output kept
FAULT_SHOWN = 300  # characters of a scoring problem's fault (a grader's failure) shown where an IE is said


@record
class TestResult:
    name: str
    verdict: Verdict | None  # None: not run (an earlier test failed, or the solution did not compile)
    cpu_ms: float = 0.0
    wall_ms: float = 0.0
    memory_mib: float = 0.0
    message: str = ""
    returned: str = ""  # the returned value, shortened (empty when nothing was returned)
    input: str = ""  # a failing test's arguments, shortened: what a WA message needs beside the difference
    output: str = ""  # what a failing test printed (stdout and stderr), capped at OUTPUT_KEPT characters
    score: float | None = None  # a scoring problem's test: its score (None: a test that scores nothing)

    def __post_init__(self):  # solution-controlled: made safe once, here
        self.message = safe_text(self.message)
        self.returned, self.input = safe_lines(self.returned), safe_lines(self.input)
        self.output = safe_lines(self.output, OUTPUT_KEPT)

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "verdict": str(self.verdict) if self.verdict else None,
            "cpu_ms": round(self.cpu_ms, 1),
            "wall_ms": round(self.wall_ms, 1),
            "memory_mib": round(self.memory_mib, 1),
            "message": self.message,
            "returned": self.returned,
            "input": self.input,
            "output": self.output,
        } | ({"score": self.score} if self.score is not None else {})


@record
class GradeResult:
    problem: Problem
    solution: Path
    tests: list[TestResult]
    compile_message: str = ""
    baseline_mib: float = 0.0
    expected: Expectation | None = None  # for stored solutions: what their folder (or package) expects
    expected_score: ScoreRange | None = None  # ... and the score (partially_accepted, submissions.yaml's score)
    machine: str | None = None  # where it was graded, when known (a cluster's workers, a recorded result's)

    def __post_init__(self):
        # solution-controlled (a compiler quotes the source): made safe once, here, line by line
        self.compile_message = safe_lines("\n".join(self.compile_message.split("\n")[:COMPILE_LINES]))

    @functools.cached_property
    def scored(self) -> Scored | None:
        """A scoring problem's grading of the tests that ran: the total and each group's score."""
        grading = self.problem.grading
        if grading is None or self.compile_message:
            return None
        return grading.grade({t.name: (t.verdict, t.score) for t in self.tests if t.verdict is not None})

    @property
    def verdict(self) -> Verdict:
        """IE when any test is IE (the judge failed somewhere: no other verdict can be trusted, and
        none may hide it), or a group's score breaks the problem's own bounds; CE when it did not
        load; a legacy scoring package: its grader's verdict; else the verdict of the first failing
        test in order; else AC (docs/verdicts.md)."""
        if any(test.verdict is Verdict.IE for test in self.tests):
            return Verdict.IE
        if self.compile_message:
            return Verdict.CE
        scored = self.scored
        if scored is not None and scored.fault:
            return Verdict.IE
        if scored is not None and scored.verdict is not None and self._every_read_test_ran():
            return scored.verdict
        for test in self.tests:
            if test.verdict not in (Verdict.AC, None):
                return test.verdict
        if any(test.verdict is None for test in self.tests):
            return Verdict.IE  # tests left unrun with no failure to explain it
        return Verdict.AC

    def _every_read_test_ran(self) -> bool:
        """Every test ran but those its grading does not read (after a rejection in a group that stops
        there: scoring.Unread), which the pool does not run; not so for `grade --examples`."""
        unrun = [test.name for test in self.tests if not test.verdict]
        unread = self.problem.grading.unread() if unrun else None
        if unread is None:
            return not unrun
        for test in self.tests:
            if test.verdict not in (Verdict.AC, None):
                unread.reject(test.name)
        return all(unread.skips(name) for name in unrun)

    @property
    def outcome(self) -> str:
        """The verdict, and a scoring problem's score: what is shown, and compared between runs."""
        scored = self.scored
        return str(self.verdict) if scored is None else f"{self.verdict} {format_score(scored.total)}"

    @property
    def expectation(self) -> str:
        """What a stored solution's folder promises: its verdicts, and a score where it says one."""
        return f"{self.expected}" + (f", {self.expected_score}" if self.expected_score else "")

    @property
    def mismatch(self) -> str | None:
        """Why a stored solution does not meet its expectation: None when it does (or has none), ""
        when its verdict is simply not the one expected."""
        if self.expected is None:
            return None
        expected = self.expected
        grading = self.problem.grading
        if (grading is not None and grading.model != "legacy" and expected.final == {Verdict.AC}
                and not expected.requirements and self.verdict not in (Verdict.IE, Verdict.CE)):
            # partially_accepted/ of a 2025-09 scoring problem: "submissions are given a score instead of a
            # verdict" (the format), so its score range alone decides, whichever test failed first
            from ..problems.expectations import TEST_VERDICTS, Requirement  # not on grade's path

            expected = replace(expected, final=None, requirements=(Requirement(TEST_VERDICTS, TEST_VERDICTS, ""),))
        scored = self.scored
        tests = [(t.name, t.verdict, t.message) for t in self.tests]
        if scored is not None:  # a test after its group's first rejection (on_reject: break) decides nothing, as
            tests = [(name, verdict if name in scored.read else None, said) for name, verdict, said in tests]  # problemtools
        why = expected.mismatch(self.verdict, tests)
        if why is None and self.expected_score is not None:
            total = scored.total if scored is not None else None
            if not self.expected_score.contains(total):
                return f"its score {format_score(total) if total is not None else '(none)'} is not {self.expected_score}"
        if why is None and scored is not None:  # submissions.yaml's score of a test group (the root's: the total)
            groups = {g.name: g.score for g in scored.groups} | {self.problem.grading.root.name or "data": scored.total}
            why = self.expected.score_mismatch(groups)
        elif why is None and self.problem.grading is None:
            why = self.expected.score_mismatch(None)
        failure = self.internal_error if why is not None and self.verdict is Verdict.IE else ""
        if failure:  # the judge's failure says why on the line that reports it
            return f"{why}: {failure}" if why else failure
        return why

    @property
    def internal_error(self) -> str:
        """Where and why the judge failed on this solution ("" when it did not): the first IE test's name
        and message (a build's IE is its first test's: see SolutionRun.result), else a scoring problem's
        fault (its grader failed), short and made safe: a grader's words may quote the solution's output."""
        failed = next((test for test in self.tests if test.verdict is Verdict.IE), None)
        if failed is not None:
            return f"{failed.name}: {failed.message}" if failed.message else failed.name
        scored = self.scored
        return safe_text(scored.fault, FAULT_SHOWN) if scored is not None else ""

    @property
    def matched(self) -> bool:
        return self.mismatch is None

    @property
    def first_failure(self) -> TestResult | None:
        return next((t for t in self.tests if t.verdict not in (Verdict.AC, None)), None)

    @property
    def passed(self) -> int:
        return sum(test.verdict is Verdict.AC for test in self.tests)

    @property
    def slowest(self) -> TestResult | None:
        ran = [test for test in self.tests if test.verdict is not None]
        return max(ran, key=lambda t: t.cpu_ms) if ran else None

    def to_json(self) -> dict:
        slowest = self.slowest
        return {
            "problem": self.problem.slug,
            "solution": str(self.solution),
            "verdict": str(self.verdict),
            "message": self.compile_message or (self.first_failure.message if self.first_failure else ""),
            "passed": self.passed,
            "total": len(self.tests),
            "slowest": {"name": slowest.name, "cpu_ms": round(slowest.cpu_ms, 1)} if slowest else None,
            "limits": {"time_s": self.problem.time_limit, "memory_mib": self.problem.memory_limit},
            "baseline_mib": round(self.baseline_mib, 1),
            "tests": [test.to_json() for test in self.tests],
        } | ({"expected": str(self.expected), "matched": self.matched, "mismatch": self.mismatch or ""}
             if self.expected else {}) | (
            {"score": self.scored.to_json()} if self.scored else {}) | (
            {"expected_score": self.expected_score.to_json()} if self.expected_score else {})


HIDDEN = {Verdict.WA: "wrong answer", Verdict.RE: "runtime error"}


def verdict_only(result: TestResult) -> TestResult:
    """A result fit for contestants: the verdict and the judge's own figures and messages; nothing
    that shows the expected value or the input, directly (a WA's difference, the test's arguments)
    or through the solution (what it printed, returned or put in an exception message)."""
    message = HIDDEN.get(result.verdict, result.message)
    return TestResult(result.name, result.verdict, result.cpu_ms, result.wall_ms, result.memory_mib, message,
                      score=result.score)

