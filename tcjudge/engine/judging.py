"""Judging: from the facts of one run (verdicts.RunFacts, as the zygote reports them) to a verdict.

One reader per kind of run (a method's test, a stdin program's test, a reference's value, a load
check); each treats an unexpected report as garbled, and the one precedence of verdicts.decide
settles the rest.
"""

from __future__ import annotations

import json
import os
import signal
import stat
from pathlib import Path
from typing import Any, Callable

from ..problems.checkers import Comparison
from ..problems.format import Data, Problem, TestCase
from ..problems.tctypes import shorten
from ..protocol import ACCEPTED, ANSWER_CAP, NOT_STARTED, REJECTED, Limits
from ..verdicts import RunFacts, Verdict, decide
from .results import TestResult

RETURNED_SHOWN = 200  # characters of a returned value kept per test (reports show it beside the expected one)
INPUT_SHOWN = 200  # characters of a failing test's arguments kept


# The report kinds each run can end with (tcjudge.protocol); any other is garbled.
ANSWERS = frozenset({"return", "error"})  # a method's test, a reference's value
PROGRAM_ENDS = frozenset({"exit", "error"})  # a stdin program's test
LOAD_ENDS = frozenset({"loaded", "missing", "compile_error", "error"})  # the load check


def limits_of(problem: Problem) -> Limits:
    return Limits(problem.time_limit, problem.memory_limit)


def judge_test(test: TestCase, facts: RunFacts, problem: Problem) -> tuple[Verdict, str, Comparison | None]:
    """The verdict of one test, from the facts of its run and the expected value (which only we
    hold), by the one precedence of verdicts.decide; and what the answer check awarded besides (a
    package validator's score files), when it ran."""
    if problem.kind.program:
        return judge_program(test, facts, problem)
    report, kind = _report_of(facts, ANSWERS)  # "loaded" or "missing" are not answers to a test
    answer = None
    if kind == "return":
        outcome = problem.check(test.args, test.expected, report.get("value"))
        answer = (Verdict.IE if outcome.judge_fault else Verdict.AC if outcome.ok else Verdict.WA), outcome.message
    return *(decide(facts, limits_of(problem), report, answer) or (Verdict.AC, "")), None


def judge_program(test: TestCase, facts: RunFacts, problem: Problem,
                  check: Callable[[bytes, bytes, bytes], Comparison] | None = None) -> tuple[Verdict, str, Comparison | None]:
    """The verdict of one run of a stdin program: it must end normally (its own end, exit status 0)
    and its standard output must pass the problem's output check (or `check`: one pass of a
    multi-pass test, in its validator's session)."""
    report, kind = _report_of(facts, PROGRAM_ENDS)  # compile_error too: CE comes from the load check alone
    if kind is None and facts.ended == "exited" and facts.exit_code == 0:
        report, kind = {"kind": "exit"}, "exit"  # ended on its own without a word (os._exit(0))
    answer = awarded = None
    if kind == "exit":
        answer, awarded = _check_answer(test, facts, problem, check or test.check or problem.check)
    return *_as_counted(problem, decide(facts, limits_of(problem), report, answer) or (Verdict.AC, "")), awarded


def answer_result(test: TestCase, problem: Problem, folder: Path) -> TestResult:
    """One test of a submit-answer submission: its answer file judged as a program's output."""
    try:
        facts, (verdict, message, awarded) = judge_answer(test, problem, folder)
    except Exception as err:  # a fault of the judge itself, as on a worker
        return TestResult(test.name, Verdict.IE, message=f"internal error: {type(err).__name__}: {err}")
    verdict, message, score = score_test(test, verdict, message, awarded)
    failed = verdict is not Verdict.AC
    return TestResult(test.name, verdict, message=message, input=input_text(test) if failed else "",
                      output=facts.output if failed else "", score=score)


def judge_answer(test: TestCase, problem: Problem, folder: Path) -> tuple[RunFacts, tuple[Verdict, str, Comparison | None]]:
    """One test of a submit-answer submission (problems/submitanswer.py): its answer file
    `folder/<test name>.ans` judged by the problem's output check as a program's output would be. The
    folder is the submitter's: the file must be a regular file inside it (no link followed), read up
    to the answer cap; one that is absent or not so is WA."""
    path, limit = folder / f"{test.name}.ans", problem.output_limit << 20
    try:
        if not path.resolve().is_relative_to(folder.resolve()):
            raise OSError("it leads out of the submission's folder")
        handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as err:
        missing = isinstance(err, FileNotFoundError)
        why = "" if missing else f" ({err.strerror or err})"
        facts = RunFacts("exited", 0, None, 0.0, 0.0, 0, "", False, "", None, answer=b"")
        return facts, (Verdict.WA, f"no answer file {test.name}.ans in the submission{why}", None)
    with os.fdopen(handle, "rb") as answer_file:
        regular = stat.S_ISREG(os.fstat(answer_file.fileno()).st_mode)
        answer = answer_file.read(min(limit, ANSWER_CAP) + 1) if regular else b""
    facts = RunFacts("exited", 0, None, 0.0, 0.0, 0, "", False, answer[:2048].decode("utf-8", "replace"), None,
                     answer=answer[:limit], answer_truncated=len(answer) > limit)
    if not regular:
        return facts, (Verdict.WA, f"{test.name}.ans is not a regular file", None)
    return facts, judge_program(test, facts, problem)


def score_test(test: TestCase, verdict: Verdict, message: str,
               awarded: Comparison | None) -> tuple[Verdict, str, float | None]:
    """A scoring problem's test gets its score by its rule (problems/scoring.TestScore), from what
    its validator wrote when the test was accepted; score files the rule forbids are the problem's
    fault: IE. Other tests score nothing (None)."""
    if test.scoring is None or verdict is Verdict.IE:
        return verdict, message, None
    accepted = verdict is Verdict.AC and awarded is not None
    score, fault = test.scoring.score(verdict is Verdict.AC, awarded.score if accepted else None,
                                      awarded.multiplier if accepted else None)
    return (Verdict.IE, fault, None) if fault else (verdict, message, score)


def _as_counted(problem: Problem, outcome: tuple[Verdict, str]) -> tuple[Verdict, str]:
    """The verdict in the problem's terms: running out of memory is RE where its format says so."""
    verdict, message = outcome
    if verdict is Verdict.MLE and problem.kind.out_of_memory is not Verdict.MLE:
        return problem.kind.out_of_memory, f"out of memory: {message}"
    return outcome


def judge_interaction(facts: RunFacts, problem: Problem, judge_message: str, who: str = "the interactor",
                      said: str = "") -> tuple[Verdict, str]:
    """The verdict of one interactive test (Kattis): the interactor's exit status is the answer (42
    accepts, 43 rejects, with its judgemessage.txt as the message). A rejection that came while the
    program still ran stands whatever the program did next (WA beats a later TLE); otherwise the
    program's own end comes first, by the one precedence. An interactor that did anything else
    (another status, a signal, no decision in time, no start) is the judge's side: IE, named `who`,
    with `said`, the last lines of its standard error."""
    other = facts.interactor or {}
    failure = _interactor_failure(other, who)
    if failure:
        return Verdict.IE, failure + (f": {said}" if said else "")
    rejected = other.get("exit_code") == REJECTED
    message = judge_message or "rejected by the interactor"
    if rejected and other.get("first"):
        return Verdict.WA, message
    report, kind = _report_of(facts, PROGRAM_ENDS)
    if kind is None and facts.ended == "exited" and facts.exit_code == 0:
        report = {"kind": "exit"}
    answer = (Verdict.WA, message) if rejected else (Verdict.AC, "")
    return _as_counted(problem, decide(facts, limits_of(problem), report, answer) or (Verdict.AC, ""))


def _interactor_failure(other: dict, who: str) -> str | None:
    if other.get("timed_out"):
        return f"{who} gave no verdict in time after the program ended"
    if other.get("signal") == signal.SIGXCPU:
        return f"{who} used more than its CPU time (the package's validation_time)"
    if other.get("signal") is not None:
        return f"{who} was killed by signal {other['signal']}"
    status = other.get("exit_code")
    if status == NOT_STARTED:
        return f"{who} could not be started"
    if status not in (ACCEPTED, REJECTED):
        return f"{who} exited with status {status}, not {ACCEPTED} or {REJECTED}"
    return None


def _check_answer(test: TestCase, facts: RunFacts, problem: Problem,
                  check: Callable[[bytes, bytes, bytes], Comparison]) -> tuple[tuple[Verdict, str], Comparison | None]:
    """A stdin program's standard output against the test's answer by `check` (the test's group's own,
    the problem's, or one pass's): AC, WA or (the output validator failed) IE; and the check's Comparison."""
    if facts.answer_truncated:
        return (Verdict.WA, f"output limit exceeded: more than {problem.output_limit} MiB on standard output"), None
    outcome = check(test.input.read(), test.answer.read(), facts.answer or b"")
    if outcome.judge_fault:
        return (Verdict.IE, outcome.message), outcome
    return ((Verdict.AC, "") if outcome.ok else (Verdict.WA, outcome.message)), outcome


def returned_value(facts: RunFacts, problem: Problem) -> tuple[Verdict, Any, str]:
    """What a run returned when there is no expected value to compare with (a reference solution on a
    new input): (AC, value, "") for a value of the return type, else the run's verdict and why."""
    report, _ = _report_of(facts, ANSWERS)
    outcome = decide(facts, limits_of(problem), report)
    if outcome:
        return outcome[0], None, outcome[1]
    mismatch = problem.returns.mismatch(report.get("value"))
    if mismatch:
        return Verdict.WA, None, f"wrong type: {mismatch}"
    return Verdict.AC, report.get("value"), ""


def judge_load(facts: RunFacts, problem: Problem) -> tuple[Verdict, str] | None:
    """None when the solution loads (module runs, class and method exist); else why not (CE, TLE, MLE, IE)."""
    report, kind = _report_of(facts, LOAD_ENDS)
    outcome = decide(facts, limits_of(problem), report)
    if kind == "compile_error":
        return Verdict.CE, report.get("message", "")
    if outcome is None:  # it ran to the end: loaded, or the class or method is missing
        return None if kind == "loaded" else (Verdict.CE, report.get("message", ""))
    verdict, message = outcome
    if message.startswith("EOFError") and problem.kind.mode == "method":  # (breaker 54b F10: a stdin program sent to a
        # method problem read its input as it loaded, and was told only "EOFError: EOF when reading a line")
        message += (f"; this problem gives no input: it calls {problem.class_name}.{problem.method} "
                    f"(a class with that method, as its statement shows)")
    return (Verdict.CE if verdict is Verdict.RE else verdict), f"while loading the solution: {message}"


def returned_text(facts: RunFacts) -> str:
    """The value a test returned (a stdin program: its output), shortened for reports; empty when
    it returned none."""
    if facts.answer is not None:
        return shorten(facts.answer[:RETURNED_SHOWN * 4].decode("utf-8", "replace"), RETURNED_SHOWN)
    report = _parse_report(facts)
    if not report or report.get("kind") != "return":
        return ""
    try:
        return shorten(repr(report.get("value")), RETURNED_SHOWN)
    except RecursionError:
        return "(too deeply nested to show)"


def data_text(data: Data, limit: int) -> str:
    """The start of a stdin test's input or answer, as text."""
    return shorten(data.read()[:limit * 4].decode("utf-8", "replace"), limit)


def input_text(test: TestCase, limit: int = INPUT_SHOWN) -> str:
    """A test's arguments (or a stdin test's input), shortened, as reports show them."""
    if test.input is not None:
        return data_text(test.input, limit)
    return shorten(", ".join(repr(list(a) if isinstance(a, tuple) else a) for a in test.args), limit)


def expected_text(test: TestCase, limit: int) -> str:
    """A test's expected answer (a stdin test's answer file, a method's value), shortened, as reports
    show it."""
    if test.answer is not None:
        return data_text(test.answer, limit)
    return shorten(repr(list(test.expected) if isinstance(test.expected, tuple) else test.expected), limit)


def _report_of(facts: RunFacts, expected: frozenset[str]) -> tuple[dict | None, str | None]:
    """The result channel's report and its kind, where a kind this run cannot end with is garbled
    (the solution wrote it, not the child's runner): the one place such a report is turned away."""
    report = _parse_report(facts)
    kind = report.get("kind") if report else None
    if kind is not None and kind not in expected:
        return {"kind": "garbled"}, "garbled"
    return report, kind


def _parse_report(facts: RunFacts) -> dict | None:
    if not facts.report or facts.report_truncated:
        return None
    try:
        report = json.loads(facts.report)
    except (ValueError, RecursionError):  # not JSON, or nested past what the parser will follow
        return {"kind": "garbled"}
    return report if isinstance(report, dict) else {"kind": "garbled"}
