"""Multi-pass tests (Kattis `type: multi-pass`): one test runs the program up to Problem.passes times.

After each pass the problem's output validator (or interactor), run in one session whose feedback
folder outlives each of its runs, decides: 43 rejects, 42 accepts, and 42 with a `nextpass.in` in the
feedback folder asks for another pass whose input is that file (taken out of the folder before the
pass runs). The format's rules (2025-09, "Multi-pass validation"), as problemtools and BAPCtools
apply them:

- the time and memory limits hold for each pass on its own: the test's CPU time and memory are those
  of its costliest pass, its wall time the passes' sum;
- a pass that fails (TLE, RE, WA, ...) ends the test with that verdict, its message naming the pass;
- a nextpass.in beside any exit status but 42, or a request for more passes than
  limits.validation_passes, is the validator's fault: IE, never the program's;
- the validator's input file is the pass's own input (the test's .in, then each nextpass.in).

The validator's score files (score.txt, score_multiplier.txt) of the pass that accepts are the
test's, as a single-pass test's are (problems/scoring.py); an interactive test is one such pass
(interactive_pass).

Judge side (trusted): the worker runs each pass as any stdin or interactive test.
"""

from __future__ import annotations


from ..problems.checkers import Comparison
from ..problems.checkers.output_validator import OutputValidator, Session, ValidatorFailed
from ..problems.format import Data, Problem, TestCase
from ..protocol import ACCEPTED
from ..record import replace
from ..verdicts import RunFacts, Verdict
from .judging import judge_interaction, judge_program
from .worker import Worker


Outcome = tuple[RunFacts, tuple[Verdict, str], Comparison | None]  # facts, verdict, what the validator awarded


def interactive_test(worker: Worker, problem: Problem, test: TestCase) -> Outcome:
    """One interactive test: the problem's interactor (a test group's own flags) beside the program.
    Raises ValidatorFailed when the interactor cannot be prepared (the problem's fault, IE)."""
    interactor = test.check.settings if test.check is not None else problem.interactor
    with interactor.session(test.answer.read()) as session:
        facts, outcome, awarded, _ = interactive_pass(worker, problem, session, test.input.read())
        return facts, outcome, awarded


def interactive_pass(worker: Worker, problem: Problem, session: Session,
                     given: bytes) -> tuple[RunFacts, tuple[Verdict, str], Comparison | None, int | None]:
    """The program once in dialogue with the interactor on the input `given`: its facts, its verdict,
    what the interactor awarded (its score files, when it accepted) and its exit status. Score files
    the format forbids (on a rejection, both, not a number) are the interactor's fault: IE."""
    facts = worker.run_interactive(session.interaction(given))
    verdict, message = judge_interaction(facts, problem, session.message(), f"the {session.validator.describe_program()}",
                                         session.stderr_tail())
    status = (facts.interactor or {}).get("exit_code")
    awarded = None
    if verdict is not Verdict.IE:
        try:
            awarded = session.verdict(status)
        except ValidatorFailed as err:
            verdict, message = Verdict.IE, str(err)
    return facts, (verdict, message), awarded, status


def run_passes(worker: Worker, problem: Problem, test: TestCase) -> Outcome:
    """One multi-pass test: its facts (the passes together), its verdict and what the validator
    awarded in the pass that accepted. Raises ValidatorFailed when the validator cannot be prepared
    (the problem's fault: IE), WorkerDied as any test does."""
    validator: OutputValidator = problem.check.settings
    with validator.session(test.answer.read()) as session:
        given = test.input.read()
        spent: list[RunFacts] = []
        for number in range(1, problem.passes + 1):
            facts, (verdict, message), awarded, status = _one_pass(worker, problem, test, session, given)
            spent.append(facts)
            following = session.next_pass()
            facts = _together(spent)
            if following is not None and status != ACCEPTED:
                return facts, (Verdict.IE, f"pass {number}: the output validator wrote {session.NEXT_PASS} but exited "
                                           f"with status {status}, not {ACCEPTED}"), None
            if verdict is not Verdict.AC:
                return facts, (verdict, f"pass {number}: {message}" if message else f"pass {number}"), None
            if following is None:
                return facts, (Verdict.AC, ""), awarded
            given = following
    return facts, (Verdict.IE, f"the output validator asked for pass {problem.passes + 1}, more than "
                               f"limits.validation_passes ({problem.passes})"), None


def _one_pass(worker: Worker, problem: Problem, test: TestCase, session: Session,
              given: bytes) -> tuple[RunFacts, tuple[Verdict, str], Comparison | None, int | None]:
    """Run the program once on `given` (in dialogue with the interactor, or on standard input and then
    judged by the validator): its facts, verdict, what the validator awarded and its exit status
    (None if it did not run)."""
    if problem.kind.interactive:
        return interactive_pass(worker, problem, session, given)
    session.status = None
    facts = worker.run_input(given)
    verdict, message, awarded = judge_program(replace(test, input=Data(inline=given)), facts, problem,
                                              lambda _given, _answer, output: session.check(given, output))
    return facts, (verdict, message), awarded, session.status


def _together(passes: list[RunFacts]) -> RunFacts:
    """The last pass's facts, with the CPU time and memory of the costliest pass and the wall time of all."""
    return replace(passes[-1], cpu=max(p.cpu for p in passes), peak_rss_kib=max(p.peak_rss_kib for p in passes),
                   wall=sum(p.wall for p in passes))
