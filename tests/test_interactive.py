"""Interactive problems: the zygote starts the problem's interactor beside the program, connects them
by two pipes, and the judge decides by the Kattis rules (engine/judging.judge_interaction).

testdata/kattis/guess is an interactive package (a guessing game); its Python submissions and the
programs in testdata/interactive/ declare their verdict in a `# expect:` line and are first played
against its interactor through the engine alone, then the whole package is checked as a user would.
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from tcjudge.engine.judging import judge_interaction
from tcjudge.engine.worker import Worker
from tcjudge.errors import JudgeInputError
from tcjudge.languages import CPP, JAVA
from tcjudge.problems.checkers.output_validator import OutputValidator, ValidatorFailed
from tcjudge.problems.loader import load_problem
from tcjudge.verdicts import Verdict

from .conftest import TESTDATA, expected_verdict

PACKAGE = TESTDATA / "kattis" / "guess"
INTERACTOR = PACKAGE / "output_validators" / "guess" / "guess.py"
PROGRAMS = sorted((PACKAGE / "submissions").glob("*/*.py")) + sorted((TESTDATA / "interactive").glob("*.py"))
SECRET = 777


class _Problem:  # judge_interaction reads the limits only
    memory_limit = 256

    def __init__(self, time_limit: float):
        self.time_limit = time_limit


def interact(worker: Worker, program: Path, interactor: Path, folder: Path, time_limit: float = 1.0, **spec):
    """Play `program` against `interactor` through the worker (the spec's limits overridden by `spec`):
    the facts and (verdict, message)."""
    response = worker.load(("interactive", str(program), time_limit), program, None, None, time_limit, 256,
                           check=True, mode="interactive")
    assert response["ok"], response
    feedback = folder / "feedback"
    feedback.mkdir(exist_ok=True)
    for stale in feedback.iterdir():
        stale.unlink()
    (folder / "input").write_text(f"{SECRET}\n")
    (folder / "answer").write_text("")
    facts = worker.run_interactive({
        "argv": [sys.executable, str(interactor), str(folder / "input"), str(folder / "answer"), f"{feedback}/"],
        "env": {"PATH": "/usr/bin:/bin"}, "cwd": str(folder), "feedback": str(feedback), "cpu_limit": 10, "memory_mib": 1024, "wall_limit": 10} | spec)
    message_file = feedback / "judgemessage.txt"
    return facts, judge_interaction(facts, _Problem(time_limit),
                                    message_file.read_text() if message_file.exists() else "")


@pytest.fixture(scope="module")
def graded():
    results = {}
    worker = Worker()
    try:
        with tempfile.TemporaryDirectory() as scratch:
            for program in PROGRAMS:
                results[program.name] = interact(worker, program, INTERACTOR, Path(scratch))
    finally:
        worker.close()
    return results


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_program_gets_its_verdict(graded, program):
    facts, (verdict, message) = graded[program.name]
    assert str(verdict) == expected_verdict(program), (message, facts)


def test_a_rejection_while_the_program_runs_stops_it_and_names_the_reason(graded):
    facts, (verdict, message) = graded["then_spins.py"]
    assert facts.interactor["first"] and facts.ended == "interactor-ended"
    assert facts.cpu < 0.5  # stopped at the rejection, not at its CPU limit
    assert message == "more than 10 guesses"


def test_the_interactor_that_fails_is_blamed_not_the_program(graded):
    _facts, (verdict, message) = graded["internal_error_interactor_crashes.py"]
    assert verdict is Verdict.IE and "interactor exited with status 1" in message


def test_an_interactor_that_cannot_start_is_an_internal_error(tmp_path):
    worker = Worker()
    try:
        _facts, (verdict, message) = interact(worker, PACKAGE / "submissions" / "accepted" / "bisect.py", tmp_path / "missing", tmp_path)
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
        facts, (verdict, message) = interact(worker, program, spy, tmp_path)
    finally:
        worker.close()
    assert verdict is Verdict.WA and len(eval(message)) == 1 and message == facts.output.strip()


def _package_copy(tmp_path: Path) -> Path:
    return Path(shutil.copytree(PACKAGE, tmp_path / "guess"))


def test_check_grades_an_interactive_package_in_every_language(judge, tmp_path):
    """The package as a user checks it: Python, C++ and Java submissions, each against the interactor."""
    problems = tmp_path / "problems"
    shutil.copytree(PACKAGE, problems / "guess")
    code, out, err = judge("--problems", problems, "check", "-j", "2")
    assert code == 0, out + err
    assert re.search(r"\b(\d+) of \1 solutions got their expected verdict", out), out
    for name, language in (("bisect.py", None), ("bisect.cpp", CPP), ("Bisect.java", JAVA)):
        if language is None or language.toolchain() is not None:  # (else left out, with a note)
            assert re.search(rf"accepted/{re.escape(name)} +AC +AC", out), out


def test_a_package_says_interactive_in_its_own_words(tmp_path):
    """2023-07's `type: interactive` with output_validator/ reads as the legacy form does."""
    folder = _package_copy(tmp_path)
    (folder / "problem.yaml").write_text("problem_format_version: 2023-07-draft\nname: Guess\ntype: interactive\n"
                                         "limits: {time_limit: 1}\n")
    (folder / "output_validators").rename(folder / "output_validator_tmp")
    (folder / "output_validator_tmp" / "guess").rename(folder / "output_validator")
    problem = load_problem(folder)
    assert problem.kind.interactive and problem.kind.mode == "interactive"
    assert problem.interactor.path.name == "output_validator"


def test_an_interactive_package_without_its_interactor_is_refused_at_its_folder(tmp_path):
    folder = _package_copy(tmp_path)
    shutil.rmtree(folder / "output_validators")
    with pytest.raises(JudgeInputError, match="exactly one under output_validator"):
        load_problem(folder)


def test_a_package_without_data_is_read_as_a_package(tmp_path):
    """Before, a package with no data/ was taken for a TopCoder problem ("missing required field 'class'")."""
    folder = _package_copy(tmp_path)
    shutil.rmtree(folder / "data")
    with pytest.raises(JudgeInputError, match="the package has no tests"):
        load_problem(folder)


def test_the_package_sets_its_interactors_limits(tmp_path):
    """limits.validation_time and validation_memory reach the interactor's spec (the format's 60 s and
    2048 MiB otherwise); a value out of range is refused at problem.yaml."""
    folder = _package_copy(tmp_path)
    spec = folder / "problem.yaml"
    default = load_problem(folder).interactor
    assert (default.time_limit, default.memory_mib) == (60, 2048)
    spec.write_text(spec.read_text() + "limits:\n  validation_time: 3\n  validation_memory: 512\n")
    interactor = load_problem(folder).interactor
    with interactor.session(b"") as session:
        given = session.interaction(b"5\n")
    assert (given["cpu_limit"], given["memory_mib"]) == (3, 512) and given["feedback"] == str(session.feedback)
    spec.write_text(spec.read_text().replace("validation_memory: 512", "validation_memory: many"))
    with pytest.raises(JudgeInputError, match="limits.validation_memory"):
        load_problem(folder)


@pytest.mark.parametrize("body, words", [
    ("while True:\n    pass\n", "CPU time (validation_time)"),
    ("data = bytearray(1 << 30)\n", "exited with status 1"),
], ids=["time", "memory"])
def test_an_output_validator_over_its_limits_is_the_problems_fault(tmp_path, body, words):
    validator = tmp_path / "validate.py"
    validator.write_text("import sys\n" + body + "sys.exit(42)\n")
    with pytest.raises(ValidatorFailed, match=re.escape(words)):
        OutputValidator(validator, [], time_limit=1, memory_mib=256).judge(b"", b"", b"")
