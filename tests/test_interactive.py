"""Interactive tests in the engine: the zygote starts the problem's interactor beside the program,
connects them by two pipes, and the judge decides by the Kattis rules (engine/judging.judge_interaction).

Each program in testdata/interactive/ declares its verdict against the guessing game's interactor.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest

from tcjudge.engine.judging import judge_interaction
from tcjudge.engine.worker import Worker
from tcjudge.verdicts import Verdict

from .conftest import TESTDATA, expected_verdict

FOLDER = TESTDATA / "interactive"
PROGRAMS = sorted(p for p in FOLDER.glob("*.py") if p.name != "guess_interactor.py")
SECRET = 777


class _Problem:  # judge_interaction reads the limits only
    time_limit, memory_limit = 1.0, 256


def _interact(worker: Worker, program: Path, interactor: Path, folder: Path):
    response = worker.load(("interactive", str(program)), program, None, None, 1.0, 256, check=True,
                           mode="interactive")
    assert response["ok"], response
    feedback = folder / "feedback"
    feedback.mkdir(exist_ok=True)
    for stale in feedback.iterdir():
        stale.unlink()
    (folder / "input").write_text(f"{SECRET}\n")
    (folder / "answer").write_text("")
    facts = worker.run_interactive({
        "argv": [sys.executable, str(interactor), str(folder / "input"), str(folder / "answer"), f"{feedback}/"],
        "env": {"PATH": "/usr/bin:/bin"}, "cwd": str(folder), "cpu_limit": 10, "memory_mib": 1024, "wall_limit": 10})
    message_file = feedback / "judgemessage.txt"
    return facts, judge_interaction(facts, _Problem(), message_file.read_text() if message_file.exists() else "")


@pytest.fixture(scope="module")
def graded():
    results = {}
    worker = Worker()
    try:
        with tempfile.TemporaryDirectory() as scratch:
            for program in PROGRAMS:
                results[program.name] = _interact(worker, program, FOLDER / "guess_interactor.py", Path(scratch))
    finally:
        worker.close()
    return results


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_program_gets_its_verdict(graded, program):
    facts, (verdict, message) = graded[program.name]
    assert str(verdict) == expected_verdict(program), (message, facts)


def test_a_rejection_while_the_program_runs_stops_it_and_names_the_reason(graded):
    facts, (verdict, message) = graded["wrong_answer_then_spins.py"]
    assert facts.interactor["first"] and facts.ended == "interactor-ended"
    assert facts.cpu < 0.5  # stopped at the rejection, not at its CPU limit
    assert message == "more than 10 guesses"


def test_the_interactor_that_fails_is_blamed_not_the_program(graded):
    _facts, (verdict, message) = graded["internal_error_interactor_crashes.py"]
    assert verdict is Verdict.IE and "interactor exited with status 1" in message


def test_an_interactor_that_cannot_start_is_an_internal_error(tmp_path):
    worker = Worker()
    try:
        _facts, (verdict, message) = _interact(worker, FOLDER / "accepted_bisect.py", tmp_path / "missing", tmp_path)
    finally:
        worker.close()
    assert verdict is Verdict.IE


def test_both_sides_run_on_one_cpu(tmp_path):
    """The interactor is pinned to the program's CPU: a ping-pong across CPUs is several times slower."""
    spy = tmp_path / "spy.py"
    spy.write_text("import os, sys\nopen(sys.argv[3] + 'judgemessage.txt', 'w').write(repr(sorted(os.sched_getaffinity(0))))\n"
                   "sys.stdin.read()\nsys.exit(43)\n")
    program = tmp_path / "affinity.py"
    program.write_text("import os, sys\nsys.stderr.write(repr(sorted(os.sched_getaffinity(0))))\n")
    worker = Worker()
    try:
        facts, (verdict, message) = _interact(worker, program, spy, tmp_path)
    finally:
        worker.close()
    assert verdict is Verdict.WA and len(eval(message)) == 1 and message == facts.output.strip()
