"""Custom graders of legacy Kattis scoring packages (issue 21): testdata/kattis/bestsquare, whose
graders/best.py keeps a group's best sub-result, and graders that crash, fail or print garbage (IE,
naming the grader)."""

from __future__ import annotations

import json
import shutil

import pytest

from tcjudge.errors import JudgeInputError
from tcjudge.problems.grader import Grader
from tcjudge.problems.loader import load_problem
from tcjudge.problems.scoring import GraderFailed
from tcjudge.verdicts import Verdict

from .conftest import TESTDATA

BESTSQUARE = TESTDATA / "kattis" / "bestsquare"


def test_bestsquare_gives_its_grader_to_secret_and_the_groups_below():
    root = load_problem(BESTSQUARE).grading.root
    sample, secret = root.items
    assert root.grader is None and sample.grader is None  # data/ and data/sample keep the default grader
    assert [g.name for g in secret.items] == ["secret/large", "secret/small"]  # in path order
    for group in (secret, *secret.items):  # grading: custom and grader_flags are inherited
        assert group.grader is not None and group.grader.program.flags == ["best"]
        assert group.grader.describe() == "grader best.py best"


def test_check_grades_bestsquare_with_its_grader(judge, tmp_path):
    code, out, err = judge("--problems", BESTSQUARE.parent, "check", "bestsquare", "-j", "2",
                           "--json", tmp_path / "r.json")
    assert code == 0, out + err
    solutions = {s["solution"].rsplit("/", 1)[-1]: s for s in json.loads((tmp_path / "r.json").read_text())["solutions"]}
    groups = {name: {g["name"]: (g["verdict"], g["score"]) for g in s["score"]["groups"]} for name, s in solutions.items()}
    # by hand: each test scores its group's accept_score (30, 70) or 0; the grader keeps the best of
    # each group and of secret's two groups (the default grader would add them up to 100)
    assert groups["square.py"] == {"sample": ("AC", 0), "secret/small": ("AC", 30), "secret/large": ("AC", 70),
                                   "secret": ("AC", 70)}
    assert solutions["square.py"]["score"]["total"] == 70
    # 32-bit squares: right for n <= 1000, wrong for both large tests
    assert groups["small_only.py"] == {"sample": ("AC", 0), "secret/small": ("AC", 30), "secret/large": ("WA", 0),
                                       "secret": ("AC", 30)}
    assert (solutions["small_only.py"]["verdict"], solutions["small_only.py"]["score"]["total"]) == ("AC", 30)
    assert (solutions["plus_one.py"]["verdict"], solutions["plus_one.py"]["score"]["total"]) == ("WA", 0)
    assert groups["plus_one.py"]["secret"] == ("WA", 0)


def _grader(tmp_path, body: str) -> Grader:
    path = tmp_path / "grader.py"
    path.write_text("import os, sys\n" + body)
    return Grader(path, ("best",))


def test_a_grader_reads_the_formats_verdicts_and_gives_its_own(tmp_path):
    # it checks what it was given (lines and flags) and answers RTE when all is as the format says
    grader = _grader(tmp_path, "ok = sys.stdin.read() == 'AC 30.0\\nRTE 0.0\\nJE 0.0\\nTLE 0.0\\nRTE 0.0\\nWA 0.5\\n'\n"
                               "print('RTE 7.5' if ok and sys.argv[1:] == ['best'] else 'AC 0')\n")
    results = [(Verdict.AC, 30.0), (Verdict.MLE, 0.0), (Verdict.IE, 0.0), (Verdict.TLE, 0.0), (Verdict.RE, 0.0),
               (Verdict.WA, 0.5)]
    assert grader(results) == (Verdict.RE, 7.5)


@pytest.mark.parametrize("body, message", [
    ("raise SystemExit('cannot grade')\n", "grader grader.py best failed (status 1), expected 0: cannot grade"),
    ("os.kill(os.getpid(), 9)\n", "grader grader.py best failed (signal 9)"),
    ("print('accepted, 30 points')\n", "grader grader.py best printed 'accepted, 30 points', not one line"),
    ("print('AC')\n", "grader grader.py best printed 'AC', not one line"),
    ("print('OK 30')\n", "grader grader.py best printed 'OK 30', not one line"),
    ("print('AC nan')\n", "grader grader.py best printed 'AC nan', not one line"),
    ("print('AC 1\\nAC 2')\n", "printed 'AC 1?AC 2', not one line"),  # (a new line made printable)
    ("print('JE 0')\n", "grader grader.py best answered JE (a judge error)"),
])
def test_a_grader_that_gives_no_verdict_is_the_problems_fault(tmp_path, body, message):
    with pytest.raises(GraderFailed) as raised:
        _grader(tmp_path, body)([(Verdict.AC, 1.0)])
    assert message in str(raised.value)


def test_a_failing_grader_makes_the_submission_ie_naming_it(tmp_path, judge):
    package = tmp_path / "packages" / "bestsquare"
    shutil.copytree(BESTSQUARE, package)
    (package / "graders" / "best.py").write_text("print('the best is 70')\n")
    code, out, _ = judge("--problems", package.parent, "grade", package / "submissions/accepted/square.py",
                         "--problem", "bestsquare", "-j", "1", "--json", tmp_path / "r.json")
    assert code != 0
    result = json.loads((tmp_path / "r.json").read_text())
    assert result["verdict"] == "IE"
    assert result["score"]["fault"].startswith("group secret/large: grader best.py best printed 'the best is 70'")
    assert "internal error: group secret/large: grader best.py best printed" in out


@pytest.mark.parametrize("edit, message", [
    (lambda p: shutil.rmtree(p / "graders"), "grading: custom needs exactly one grader program under graders/, found 0"),
    (lambda p: shutil.copy(p / "graders/best.py", p / "graders/other.py"), "found 2"),
    (lambda p: (p / "data/secret/testdata.yaml").write_text("grading: mine\n"),
     "grading: expected default or custom, got 'mine'"),
])
def test_a_custom_grading_without_its_grader_is_refused_with_a_reason(tmp_path, edit, message):
    package = tmp_path / "packages" / "bestsquare"
    shutil.copytree(BESTSQUARE, package)
    edit(package)
    with pytest.raises(JudgeInputError, match=message):
        load_problem(package)


def test_a_graders_failure_is_named_where_the_ie_is_said(tmp_path, judge):
    """issue 46: a scoring package's grader that failed left the reason in the JSON's score.fault alone:
    check's line ended 'an internal error decides nothing: ', the timing warning and grade's summary of
    a submission with a failing test said no reason either."""
    package = tmp_path / "packages" / "bestsquare"
    shutil.copytree(BESTSQUARE, package)
    (package / ".timelimit").unlink()  # the limit computed: the accepted submissions are timed first
    (package / "graders" / "best.py").write_text("import sys\nsys.exit('cannot grade \\x1b[2J here')\n")
    why = "group secret/large: grader best.py best failed (status 1), expected 0: cannot grade ?[2J here"
    code, out, err = judge("--problems", package.parent, "check", "-j", "1")
    assert code == 1
    assert f"square.py: it gets IE with 12 s per test ({why})" in err, err
    assert f"accepted/square.py: IE 0 (expected AC): {why}\n" in out, out  # (a legacy scoring accepted/: its final verdict)
    assert f"wrong_answer/plus_one.py: IE 0 (expected WA): an internal error decides nothing: {why}\n" in out, out
    code, out, _ = judge("--problems", package.parent, "grade", package / "submissions/wrong_answer/plus_one.py",
                         "-j", "1")
    assert code != 0 and "first failure: sample/1: " in out, out  # a failing test, then the grader's fault
    assert f"\ninternal error: {why}\n" in out, out
    assert "\x1b" not in out + err
