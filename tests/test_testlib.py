"""testlib checkers (problems/checkers/testlib.py): `checker input output answer`, exit 0 accepted,
1 wrong answer, 2 presentation error, 3 the checker's failure (IE), 7 points, the message on
standard error; usable by a stdin problem of ours (`checker: testlib`, testdata/testlib/) and by a
Kattis package (the same key, its output validator folder: testdata/kattis/anydivisor, in C++).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tcjudge.errors import JudgeInputError
from tcjudge.problems.checkers import testlib
from tcjudge.problems.loader import load_problem

from .conftest import TESTDATA

DIVISOR = TESTDATA / "testlib" / "problems" / "divisor"
PACKAGE = TESTDATA / "kattis" / "anydivisor"


def _checker(tmp_path: Path, body: str) -> testlib.TestlibChecker:
    path = tmp_path / "checker.py"
    path.write_text("import os, sys\n" + body)
    return testlib.TestlibChecker(path)


@pytest.mark.parametrize("body, ok, fault, message", [
    ("print('ok 1 number', file=sys.stderr)\n", True, False, ""),
    ("print('wrong answer expected 3, found 4', file=sys.stderr); sys.exit(1)\n", False, False,
     "wrong answer expected 3, found 4"),
    ("print('wrong output format Extra information', file=sys.stderr); sys.exit(2)\n", False, False,
     "wrong output format Extra information"),
    ("sys.exit(2)\n", False, False, "presentation error (the checker's exit status 2)"),
    ("sys.exit(4)\n", False, False, "extra output (the checker's exit status 4)"),
    ("print('points 0.5 half', file=sys.stderr); sys.exit(7)\n", False, False, "points 0.5 half"),
    ("sys.exit(8)\n", False, False, "unexpected end of the output (the checker's exit status 8)"),
    ("print('FAIL answer file is broken', file=sys.stderr); sys.exit(3)\n", False, True,
     "testlib checker checker.py failed (status 3): FAIL answer file is broken"),
    ("sys.exit(5)\n", False, True, "testlib checker checker.py failed (status 5)"),
    ("os.kill(os.getpid(), 9)\n", False, True, "testlib checker checker.py failed (signal 9)"),
])
def test_each_exit_status_means_what_the_convention_says(tmp_path, body, ok, fault, message):
    outcome = testlib.check(b"1 2\n", b"3\n", b"3\n", _checker(tmp_path, body))
    assert (outcome.ok, outcome.judge_fault, outcome.message) == (ok, fault, message)


def test_the_checker_reads_input_output_answer_in_that_order(tmp_path):
    checker = _checker(tmp_path, "texts = [open(p).read() for p in sys.argv[1:4]]\n"
                                 "sys.exit(0 if texts == ['given', 'printed', 'answer'] else 1)\n")
    assert testlib.check(b"given", b"answer", b"printed", checker).ok


def test_a_stdin_problem_with_a_testlib_checker_grades_its_stored_solutions(judge):
    code, out, err = judge("--problems", DIVISOR.parent, "check")
    assert code == 0, out + err
    assert re.search(r"\b4 of 4 solutions got their expected verdict", out), out


def test_a_checker_that_fails_is_ie_never_the_solutions_fault(judge, tmp_path):
    problem = Path(shutil.copytree(DIVISOR, tmp_path / "problems" / "divisor"))
    (problem / "tests" / "semiprime.ans").write_text("7\n")  # not a divisor: the checker says FAIL
    report = tmp_path / "result.json"
    judge("--problems", problem.parent, "grade", TESTDATA / "testlib" / "solutions" / "divisor" / "accepted" /
          "smallest.py", "--problem", "divisor", "--test", "semiprime", "--json", report)
    result = json.loads(report.read_text())
    assert result["verdict"] == "IE"
    assert result["message"] == ("testlib checker checker.py failed (status 3): FAIL the answer file's 7 is not a "
                                 "proper divisor of 999962000357")


def test_a_kattis_package_names_its_testlib_checker_and_it_is_compiled(judge, tmp_path):
    report = tmp_path / "result.json"
    judge("--problems", PACKAGE.parent, "grade", PACKAGE / "submissions" / "wrong_answer" / "two_numbers.py",
          "--problem", "anydivisor", "--test", "sample/1", "--json", report)
    result = json.loads(report.read_text())
    assert (result["verdict"], result["message"]) == ("WA", "wrong output format extra tokens after the integer")


def _stdin_problem(tmp_path: Path, yaml_tail: str, checker: bool = True) -> Path:
    folder = Path(shutil.copytree(DIVISOR, tmp_path / "divisor"))
    if not checker:
        (folder / "checker.py").unlink()
    (folder / "problem.yaml").write_text((folder / "problem.yaml").read_text() + yaml_tail)
    return folder


@pytest.mark.parametrize("yaml_tail, checker, message", [
    ("", False, "checker: checker: testlib needs one of checker.cpp"),
    ("validator_flags: case_sensitive\n", True, "a testlib checker takes neither output_validator nor validator_flags"),
])
def test_a_stdin_problem_with_a_checker_it_cannot_use_is_refused(tmp_path, yaml_tail, checker, message):
    with pytest.raises(JudgeInputError, match=re.escape(message)):
        load_problem(_stdin_problem(tmp_path, yaml_tail, checker))


def test_a_stdin_problem_names_only_testlib_as_its_checker(tmp_path):
    folder = _stdin_problem(tmp_path, "")
    (folder / "problem.yaml").write_text((folder / "problem.yaml").read_text().replace("checker: testlib", "checker: exact"))
    with pytest.raises(JudgeInputError, match="a stdin problem's checker is 'testlib'"):
        load_problem(folder)


@pytest.mark.parametrize("edit, message", [
    (lambda text: text.replace("type: pass-fail", "type: interactive"), "interactive and multi-pass problems need a Kattis"),
    (lambda text: text.replace("checker: testlib", "checker: polygon"), "only 'testlib' is known in a package"),
    (lambda text: text + "validator_flags: case_sensitive\n", "a testlib checker takes no validator flags"),
])
def test_a_package_with_a_testlib_checker_it_cannot_use_is_refused(tmp_path, edit, message):
    folder = Path(shutil.copytree(PACKAGE, tmp_path / "anydivisor"))
    spec = folder / "problem.yaml"
    spec.write_text(edit(spec.read_text()))
    with pytest.raises(JudgeInputError, match=re.escape(message)):
        load_problem(folder)

