"""`judge.py stress`: random valid inputs until a solution and the reference disagree, then the input
shrunk to a minimal counterexample (Polygon's stress tests, with hypothesis's shrinking).

Both solutions run in the sandboxed engine, each in its own worker kept warm across cases (so a case
costs two forked children, not two interpreters). hypothesis draws the inputs (see inputs.py) and,
on the first disagreement, crash or limit, replays smaller inputs until none smaller still fails;
the answer is the reference's value on that input, ready to keep as a test.
"""

from __future__ import annotations

import json
import random
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

from .. import languages
from ..engine.judging import judge_load, judge_test, returned_value
from ..engine.worker import Worker, WorkerDied
from ..errors import JudgeInputError
from ..protocol import SOURCE_LIMIT
from ..problems.format import Problem, TestCase
from ..record import field, record
from ..text import safe_text
from ..verdicts import Verdict
from .inputs import input_strategy, require_hypothesis

SHRINK_BUDGET = 120.0  # seconds of shrinking at most (a TLE counterexample costs a time limit per try)


@record
class Failure:
    """One input on which the solution fails, and how. The message is the solution's own text (an
    exception message, a returned value): made safe here, since it never passes through TestResult.
    Values (expected, got) are only ever shown as JSON, which escapes them."""

    args: dict[str, Any]
    expected: Any
    got: Any
    verdict: Verdict
    message: str

    def __post_init__(self) -> None:
        self.message = safe_text(self.message)


@record
class StressResult:
    failure: Failure | None
    cases: int
    seconds: float
    seed: int

    def to_json(self) -> dict:
        failure = self.failure
        return {
            "found": failure is not None,
            "args": failure.args if failure else None,
            "expected": failure.expected if failure else None,
            "got": failure.got if failure else None,
            "verdict": str(failure.verdict) if failure else None,
            "cases": self.cases,
            "seconds": round(self.seconds, 2),
        }


class Duel:
    """The reference and a solution loaded in two warm workers, run on the same inputs.

    With jobs >= 2 the two runs of a case happen at the same time (one thread each); with 1, in turn.
    """

    def __init__(self, problem: Problem, solution: Path, reference: Path, jobs: int = 1, confine: bool = True,
                 source_limit: int = SOURCE_LIMIT):
        self.problem = problem
        self.confine = confine
        self.source_limit = source_limit  # bytes; a larger source does not load (CE)
        self.paths = {"reference": reference, "solution": solution}
        self.programs = {role: self._program(role) for role in self.paths}  # compiled once, before any worker
        self.workers: dict[str, Worker] = {}
        self.threads = ThreadPoolExecutor(2) if jobs >= 2 else None
        try:
            for role in self.paths:
                self._start(role)
        except BaseException:
            self.close()
            raise

    def _program(self, role: str) -> dict | None:
        """The C++ or Java build of one side, through its language as grading does (None for Python)."""
        path = self.paths[role]
        try:
            return languages.for_path(path).program(path, self.problem, self.source_limit)
        except languages.CompileError as err:
            raise JudgeInputError(f"the {role} does not load: {Verdict.CE}: {safe_text(str(err))}", path) from None
        except (languages.ToolchainMissing, languages.BuildFault) as err:
            raise JudgeInputError(f"the {role} cannot run here: {safe_text(str(err))}", path) from None

    def _start(self, role: str) -> None:
        worker = Worker(confine=self.confine)
        self.workers[role] = worker
        problem, path = self.problem, self.paths[role]
        response = worker.load((role, str(path)), path, problem.class_name, problem.method, problem.time_limit,
                               problem.memory_limit, check=True, source_limit=self.source_limit,
                               program=self.programs[role])
        trouble = (Verdict.CE, response["compile_error"]) if not response["ok"] else judge_load(response["facts"], problem)
        if trouble:
            raise JudgeInputError(f"the {role} does not load: {trouble[0]}: {safe_text(trouble[1])}", path)

    def __enter__(self) -> Duel:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        for worker in self.workers.values():
            worker.close()
        self.workers.clear()
        if self.threads:
            self.threads.shutdown()

    def _run(self, role: str, args: tuple):
        try:
            return self.workers[role].run(args)
        except WorkerDied:  # the judge's fault, never the solution's: one fresh worker, one more try
            self.workers[role].close()
            self._start(role)
            return self.workers[role].run(args)

    def fight(self, values: dict[str, Any]) -> Failure | None:
        """None when the solution gives the reference's answer on this input, else how it fails.
        A reference that fails is no counterexample against the solution: ReferenceFailed."""
        args = tuple(p.type.to_argument(values[p.name]) for p in self.problem.parameters)
        if self.threads:
            pending = {role: self.threads.submit(self._run, role, args) for role in self.workers}
            facts = {role: future.result() for role, future in pending.items()}
        else:
            facts = {role: self._run(role, args) for role in self.workers}
        verdict, expected, message = returned_value(facts["reference"], self.problem)
        got = returned_value(facts["solution"], self.problem)[1]
        if verdict is not Verdict.AC:
            raise ReferenceFailed(f"the reference fails on {json.dumps(values)}: {verdict}: {safe_text(message)}",
                                  self.paths["reference"])
        verdict, message, _ = judge_test(TestCase("stress", args, expected, "stress", 0), facts["solution"], self.problem)
        return None if verdict is Verdict.AC else Failure(values, expected, got, verdict, message)


class ReferenceFailed(JudgeInputError):
    """The reference does not give a value on an input: the setter's problem to fix, not the solution's."""


class _Stop(BaseException):
    """Carries a ReferenceFailed out of the hypothesis test: a BaseException, so hypothesis neither
    shrinks it nor reports it as the solution's failure."""

    def __init__(self, error: ReferenceFailed):
        super().__init__(str(error))
        self.error = error


class _TimeUp(BaseException):
    """Raised inside the hypothesis test when the time is over: a BaseException, so hypothesis stops at
    once instead of shrinking it like a failure."""


class _Failed(Exception):
    def __init__(self, failure: Failure):
        super().__init__(failure.message)
        self.failure = failure


@record
class _Progress:
    cases: int = 0
    best: Failure | None = None
    found_at: float | None = None
    on_case: Callable[[int, Failure | None], None] | None = field(default=None)


def stress(duel: Duel, seconds: float, seed: int | None = None,
           on_case: Callable[[int, Failure | None], None] | None = None) -> StressResult:
    """Draw inputs for `seconds` (or until hypothesis has tried every input of a small space); on a
    failure, shrink it (at most SHRINK_BUDGET seconds) and return the minimal one."""
    require_hypothesis()
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as hypothesis_seed

    seed = random.SystemRandom().randrange(2**32) if seed is None else seed
    started = time.monotonic()
    state = _Progress(on_case=on_case)

    @hypothesis_seed(seed)
    @settings(database=None, max_examples=10**9, deadline=None, suppress_health_check=list(HealthCheck),
              verbosity=Verbosity.quiet, report_multiple_bugs=False, phases=[Phase.generate, Phase.shrink])
    @given(input_strategy(duel.problem))
    def attempt(values):
        now = time.monotonic()
        if state.best is None and now - started > seconds:
            raise _TimeUp
        if state.best is not None and now - state.found_at > SHRINK_BUDGET and values != state.best.args:
            return  # shrinking has had its time: only the best failure so far still fails
        state.cases += 1
        try:
            failure = duel.fight(values)
        except ReferenceFailed as err:
            raise _Stop(err) from None
        if state.on_case:
            state.on_case(state.cases, failure)
        if failure:
            if state.best is None:
                state.found_at = time.monotonic()
            state.best = failure
            raise _Failed(failure)

    failure = None
    try:
        attempt()
    except _TimeUp:
        pass
    except _Stop as stop:
        raise stop.error from None
    except _Failed as err:
        failure = err.failure
    except Exception as err:  # hypothesis gave up (e.g. the rules reject almost every input)
        if state.best is None:
            raise JudgeInputError(f"stress could not draw valid inputs: {type(err).__name__}: {err}") from None
        failure = state.best
    return StressResult(failure, state.cases, time.monotonic() - started, seed)


def failure_text(failure: Failure, name: str) -> str:
    """The counterexample as a test case ready to paste into a test file."""
    from ..problems.testgen import test_lines

    lines = test_lines(name, failure.args, failure.expected, f"found by stress: {failure.verdict}")
    return "\n".join([f"counterexample ({failure.verdict}: {failure.message}):", *lines])
