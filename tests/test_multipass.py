"""Multi-pass Kattis packages: the validator's nextpass.in feeds the next pass, up to the pass limit
(engine/passes.py, problems/multipass.py).

testdata/kattis/encode is a multi-pass package of ours (pass 1 encodes a number as a word, pass 2
decodes the word the program wrote); its submissions are checked as a user would, and copies of it
with another validator show each rule: a validator that asks for too many passes, one that fails
mid-way, and one that writes nextpass.in yet rejects are the problem's fault (IE); the interactive
variant (`type: [interactive, multi-pass]`, the 2025-09 list form) plays the same passes in dialogue.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tcjudge.errors import JudgeInputError
from tcjudge.problems.kattis import PACKAGE
from tcjudge.problems.loader import inspect_problem, load_problem
from tcjudge.problems.multipass import INTERACTIVE_MULTI_PASS, MULTI_PASS

from .conftest import TESTDATA

ENCODE = TESTDATA / "kattis" / "encode"
ACCEPTED = ENCODE / "submissions" / "accepted" / "base26.py"

# Validators written for the rules below; each replaces the package's own in a copy. Pass 1's input
# is the test's .in ("encode N"), later passes' input is whatever the validator wrote.
ALWAYS_ANOTHER = """import sys
open(sys.argv[3] + "nextpass.in", "w").write(open(sys.argv[1]).read() + "x")
sys.exit(42)
"""
FAILS_IN_PASS_2 = """import sys
if open(sys.argv[1]).read().startswith("encode"):
    open(sys.argv[3] + "nextpass.in", "w").write("decode b")
    sys.exit(42)
raise SystemExit(1)  # a bug of the validator's, in pass 2
"""
NEXT_PASS_BUT_REJECTS = """import sys
open(sys.argv[3] + "nextpass.in", "w").write("decode b")
sys.exit(43)
"""
DONE_AFTER_ONE = """import sys
sys.exit(42)  # accepts in pass 1 without nextpass.in: the test ends there
"""
# The package's validator as an interactor: it sends the pass's input, then judges the reply.
INTERACTOR = """import runpy, sys
sys.stdout.write(open(sys.argv[1]).read())
sys.stdout.flush()
runpy.run_path(sys.argv[4], run_name="__main__")
"""


def _copy(tmp_path: Path, validator: str | None = None, yaml_edit=None) -> Path:
    folder = Path(shutil.copytree(ENCODE, tmp_path / "problems" / "encode"))
    if validator is not None:
        (folder / "output_validator" / "validator.py").write_text(validator)
    if yaml_edit is not None:
        path = folder / "problem.yaml"
        path.write_text(yaml_edit(path.read_text()))
    return folder


def _grade(judge, folder: Path, solution: Path, tmp_path: Path, *extra: str) -> dict:
    report = tmp_path / "result.json"
    judge("--problems", folder.parent, "grade", solution, "--problem", folder.name, "--json", report, *extra)
    return json.loads(report.read_text())


def test_the_package_is_read_as_multi_pass_with_its_pass_limit():
    problem = load_problem(ENCODE)
    assert problem.kind is MULTI_PASS and problem.passes == 2
    assert problem.signature == "standard input and output, up to 2 passes"


def test_check_gives_every_submission_its_expected_verdict(judge, tmp_path):
    folder = _copy(tmp_path)
    code, out, err = judge("--problems", folder.parent, "check")
    assert code == 0, out + err
    counted = re.search(r"\b(\d+) of (\d+) solutions got their expected verdict", out)
    assert counted and counted.group(1) == counted.group(2) and int(counted.group(1)) >= 5, out


def test_a_failing_pass_is_named_with_the_validator_message(judge, tmp_path):
    forgets = _grade(judge, ENCODE, ENCODE / "submissions" / "wrong_answer" / "forgets.py", tmp_path, "--test", "sample/1")
    assert forgets["message"] == "pass 2: 2024 encoded as abc; expected 2024, got '0'"
    digits = _grade(judge, ENCODE, ENCODE / "submissions" / "wrong_answer" / "digits.py", tmp_path, "--test", "sample/1")
    assert digits["message"] == "pass 1: expected one word of 1 to 7 lowercase letters"
    slow = _grade(judge, ENCODE, ENCODE / "submissions" / "time_limit_exceeded" / "slow_decode.py", tmp_path,
                  "--test", "sample/1")
    assert slow["verdict"] == "TLE" and slow["message"].startswith("pass 2")


def test_the_time_limit_holds_for_each_pass_not_their_sum(judge, tmp_path):
    """Two passes of 0.6 s of CPU each, under a 1 s limit: accepted, and the test's CPU time is that of
    one pass (the format: the limits apply to each invocation separately)."""
    folder = _copy(tmp_path)
    program = tmp_path / "busy.py"
    program.write_text("import time\nstart = time.process_time()\nwhile time.process_time() - start < 0.6:\n"
                       "    pass\n" + ACCEPTED.read_text())
    result = _grade(judge, folder, program, tmp_path, "--test", "sample/1")
    assert result["verdict"] == "AC", result
    assert 600 <= result["tests"][0]["cpu_ms"] < 1000, result


def test_asking_for_more_passes_than_the_limit_is_the_validators_fault(judge, tmp_path):
    folder = _copy(tmp_path, ALWAYS_ANOTHER, lambda text: text.replace("validation_passes: 2", "validation_passes: 3"))
    result = _grade(judge, folder, ACCEPTED, tmp_path, "--test", "sample/1")
    assert result["verdict"] == "IE"
    assert result["message"] == "the output validator asked for pass 4, more than limits.validation_passes (3)"


def test_a_validator_that_fails_in_a_later_pass_is_ie_never_the_programs_fault(judge, tmp_path):
    folder = _copy(tmp_path, FAILS_IN_PASS_2)
    result = _grade(judge, folder, ACCEPTED, tmp_path, "--test", "sample/1")
    assert result["verdict"] == "IE"
    assert result["message"].startswith("pass 2: output validator output_validator exited with status 1, not 42 or 43"), result


def test_nextpass_in_beside_a_rejection_is_the_validators_fault(judge, tmp_path):
    folder = _copy(tmp_path, NEXT_PASS_BUT_REJECTS)
    result = _grade(judge, folder, ACCEPTED, tmp_path, "--test", "sample/1")
    assert result["verdict"] == "IE"
    assert result["message"] == "pass 1: the output validator wrote nextpass.in but exited with status 43, not 42"


def test_an_acceptance_without_nextpass_in_ends_the_test(judge, tmp_path):
    folder = _copy(tmp_path, DONE_AFTER_ONE)
    never_decodes = tmp_path / "never_decodes.py"
    never_decodes.write_text("command, argument = input().split()\nprint('b' if command == 'encode' else 1 / 0)\n")
    assert _grade(judge, folder, never_decodes, tmp_path)["verdict"] == "AC"


@pytest.mark.parametrize("limit", ["1", "two", "2.5"])
def test_a_pass_limit_below_two_or_not_whole_is_refused(tmp_path, limit):
    folder = _copy(tmp_path, yaml_edit=lambda text: text.replace("validation_passes: 2", f"validation_passes: {limit}"))
    with pytest.raises(JudgeInputError, match="limits.validation_passes: expected a whole number of at least 2"):
        load_problem(folder)


def test_with_the_default_validator_a_multi_pass_package_is_pass_fail_with_a_warning(tmp_path):
    folder = _copy(tmp_path)
    shutil.rmtree(folder / "output_validator")
    (folder / "data" / "sample" / "1.ans").write_text("czw\n")
    problem, findings = inspect_problem(folder)
    assert not findings.errors and problem.kind is PACKAGE
    assert any("has one pass" in warning.message for warning in findings.warnings)


def test_interactive_multi_pass_plays_each_pass_in_dialogue(judge, tmp_path):
    """type: [interactive, multi-pass]: the interactor sends each pass's input and judges the reply
    (the package's validator, run after it), and its nextpass.in starts the next dialogue."""
    folder = _copy(tmp_path, yaml_edit=lambda text: text.replace("type: multi-pass", "type: [interactive, multi-pass]"))
    validator = folder / "output_validator" / "validator.py"
    judge_file = tmp_path / "encode_judge.py"  # beside the package: a validator folder holds one program
    judge_file.write_text(validator.read_text())
    validator.write_text(INTERACTOR.replace("sys.argv[4]", repr(str(judge_file))))
    problem = load_problem(folder)
    assert problem.kind is INTERACTIVE_MULTI_PASS and problem.interactor is not None
    code, out, err = judge("--problems", folder.parent, "check")
    assert code == 0, out + err
    forgets = _grade(judge, folder, folder / "submissions" / "wrong_answer" / "forgets.py", tmp_path, "--test", "sample/1")
    assert forgets["message"] == "pass 2: 2024 encoded as abc; expected 2024, got '0'"
