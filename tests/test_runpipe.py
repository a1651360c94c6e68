"""Interactive edge cases in the manner of DOMjudge's run-pipe tests (written by us): each folder of
testdata/interactive/runpipe holds an interactor and a program that declares its verdict; both are
played through the engine (the interactor as a Kattis output validator, confined as the problem's
trusted code). The cases on the program's side are submissions of testdata/kattis/guess
(tests/test_interactive.py).
"""

from __future__ import annotations

import re
import signal
import tempfile
from pathlib import Path

import pytest

from tcjudge.engine.sandbox import _landlock
from tcjudge.engine.worker import Worker
from tcjudge.verdicts import Verdict

from .conftest import TESTDATA, expected_verdict
from .test_interactive import interact

CASES = sorted(path for path in (TESTDATA / "interactive" / "runpipe").iterdir() if path.is_dir())
TIME_LIMIT_LINE = re.compile(r"^# time limit: ([0-9.]+)$", re.M)
# the interactor's limits here: 2 s of CPU, 3 s to decide once the program has ended; a case that must
# meet its CPU limit first gets a long wall-clock bound
SPEC = {"cpu_limit": 2, "wall_limit": 3}
SPEC_OF = {"interactor_spins_after_exit": {"wall_limit": 60}, "busy_interactor": {"cpu_limit": 10}}


@pytest.fixture(scope="module")
def played():
    results = {}
    worker = Worker()
    try:
        for case in CASES:
            program = case / "program.py"
            limit = TIME_LIMIT_LINE.search(program.read_text())
            with tempfile.TemporaryDirectory() as scratch:
                results[case.name] = interact(worker, program, case / "interactor.py", Path(scratch),
                                              float(limit.group(1)) if limit else 1.0,
                                              **(SPEC | SPEC_OF.get(case.name, {})))
    finally:
        worker.close()
    return results


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_each_case_gets_its_verdict(played, case):
    if case.name == "confined_interactor" and _landlock.abi_version()[0] < 4:
        pytest.skip("needs Landlock ABI 4 (Linux 6.7) for the interactor's confinement")
    facts, (verdict, message) = played[case.name]
    assert str(verdict) == expected_verdict(case / "program.py"), (message, facts)


def test_an_interactor_that_loops_after_the_program_is_stopped_at_its_cpu_limit(played):
    _facts, (verdict, message) = played["interactor_spins_after_exit"]
    assert verdict is Verdict.IE and "CPU time" in message and "validation_time" in message


def test_an_interactor_that_sleeps_after_the_program_is_stopped_by_the_wall_clock(played):
    facts, (verdict, message) = played["interactor_sleeps_after_exit"]
    assert verdict is Verdict.IE and facts.interactor["timed_out"], message


def test_an_interactor_killed_by_a_signal_is_the_judges_side(played):
    facts, (verdict, message) = played["interactor_killed"]
    assert verdict is Verdict.IE and facts.interactor["signal"] == signal.SIGSEGV, message


def test_the_program_is_charged_only_its_own_time(played):
    """The interactor spent about 2 s of CPU on the program's CPU while the program waited: that is
    neither the program's CPU time nor its idle time (its idle limit is 1.5 s)."""
    facts, (verdict, message) = played["busy_interactor"]
    assert verdict is Verdict.AC, (message, facts)
    assert facts.cpu < 0.5 and facts.wall > 2.0, facts


def test_the_interactor_writes_only_its_feedback_and_has_no_network(played):
    if _landlock.abi_version()[0] < 4:
        pytest.skip("needs Landlock ABI 4 (Linux 6.7)")
    _facts, (verdict, message) = played["confined_interactor"]
    assert message == "denied denied denied"
