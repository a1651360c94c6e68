"""Submit-answer Kattis packages (issue 21): testdata/kattis/factor, whose submissions are folders of
answer files (one NAME.ans per test, laid out as data/ is) judged by the package's output validator,
and a program (as the format's own example package stores one). They were refused (exit 2)."""

from __future__ import annotations

import json
import shutil

import pytest

from tcjudge.errors import JudgeInputError
from tcjudge.problems.loader import load_problem
from tcjudge.reports.fingerprints import solution_hash

from .conftest import TESTDATA

FACTOR = TESTDATA / "kattis" / "factor"


def _verdicts(report: dict) -> dict[str, tuple[str, str]]:
    return {t["name"]: (t["verdict"], t["message"]) for t in report["tests"]}


def test_factor_is_read_as_a_submit_answer_package():
    problem = load_problem(FACTOR)
    assert problem.kind.name == "kattis submit-answer" and problem.kind.answers
    assert [t.name for t in problem.tests] == ["sample/1", "secret/1", "secret/2"]


def test_check_grades_answer_folders_and_programs(judge, tmp_path):
    code, out, err = judge("--problems", FACTOR.parent, "check", "factor", "-j", "2", "--all-tests",
                           "--json", tmp_path / "r.json")
    assert code == 0, out + err
    assert "4 of 4 solutions got their expected verdict" in out
    solutions = {s["solution"].split("/submissions/")[1]: s for s in json.loads((tmp_path / "r.json").read_text())["solutions"]}
    assert set(solutions) == {"accepted/divisors", "accepted/trial_division.py", "wrong_answer/trivial",
                              "wrong_answer/samples_only"}
    # by hand: the validator accepts any proper divisor (5 of 15, 17 of 221, 999983 of 999979 x 999983), not only
    # the answer file's; 1 is not one
    assert {name: v for name, (v, _) in _verdicts(solutions["accepted/divisors"]).items()} == {
        "sample/1": "AC", "secret/1": "AC", "secret/2": "AC"}
    assert _verdicts(solutions["wrong_answer/trivial"]) == {
        "sample/1": ("AC", ""), "secret/1": ("WA", "1 is not a proper divisor of 221"), "secret/2": ("AC", "")}
    assert _verdicts(solutions["wrong_answer/samples_only"])["secret/2"] == (
        "WA", "no answer file secret/2.ans in the submission")


def test_grade_gives_a_folder_of_answers_its_verdict_per_test(judge, tmp_path):
    code, out, _ = judge("--problems", FACTOR.parent, "grade", FACTOR / "submissions/wrong_answer/trivial",
                         "--problem", "factor", "-j", "1", "--json", tmp_path / "r.json")
    assert code == 1
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["verdict"] == "WA" and [v for v, _ in _verdicts(report).values()] == ["AC", "WA", "AC"]
    assert "first failure: secret/1: 1 is not a proper divisor of 221" in out


def test_a_folder_needs_a_submit_answer_problem_named(judge):
    code, _, err = judge("--problems", FACTOR.parent, "grade", FACTOR / "submissions/accepted/divisors",
                         "--problem", "addtwo")
    assert code == 2 and "graded only for a submit-answer problem, and addtwo is not one" in err
    code, _, err = judge("--problems", FACTOR.parent, "grade", FACTOR / "submissions/accepted/divisors")
    assert code == 2 and "name its problem with --problem" in err


def test_an_answer_that_is_a_link_is_not_followed(judge, tmp_path):
    """The answers are the submitter's: a link to the judge's own answer file (or anywhere) is WA,
    never read."""
    answers = tmp_path / "answers"
    shutil.copytree(FACTOR / "submissions/accepted/divisors", answers)
    (answers / "secret/1.ans").unlink()
    (answers / "secret/1.ans").symlink_to(FACTOR / "data/secret/1.ans")
    (answers / "secret/2.ans").unlink()
    (answers / "secret/2.ans").symlink_to("../sample/1.ans")  # a link inside the folder: not followed either
    code, _, _ = judge("--problems", FACTOR.parent, "grade", answers, "--problem", "factor", "-j", "1",
                       "--json", tmp_path / "r.json")
    assert code == 1
    verdicts = _verdicts(json.loads((tmp_path / "r.json").read_text()))
    assert verdicts["sample/1"] == ("AC", "")
    assert verdicts["secret/1"][0] == "WA" and "leads out of the submission's folder" in verdicts["secret/1"][1]
    assert verdicts["secret/2"][0] == "WA" and "no answer file secret/2.ans" in verdicts["secret/2"][1]


def test_a_changed_answer_is_a_changed_submission(tmp_path):
    answers = tmp_path / "answers"
    shutil.copytree(FACTOR / "submissions/accepted/divisors", answers)
    before = solution_hash(answers)
    (answers / "secret/1.ans").write_text("13\n")
    assert solution_hash(answers) != before != "unreadable"


@pytest.mark.parametrize("kind", ["interactive", "multi-pass"])
def test_submit_answer_with_a_kind_the_format_rules_out_is_refused(tmp_path, kind):
    package = tmp_path / "factor"
    shutil.copytree(FACTOR, package)
    spec = package / "problem.yaml"
    spec.write_text(spec.read_text().replace("type: pass-fail submit-answer", f"type: [submit-answer, {kind}]"))
    with pytest.raises(JudgeInputError, match=f"type: submit-answer cannot be {kind} as well"):
        load_problem(package)
