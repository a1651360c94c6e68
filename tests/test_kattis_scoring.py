"""Scoring problems and test-group settings of Kattis/ICPC packages (issue 21): testdata/kattis/trisum
(legacy, two groups, a partially accepted submission), 2025-09 test_group.yaml packages written here,
the default grader's rules, the validator's score files, per-group validator flags, and the history's
score columns."""

from __future__ import annotations

import json
import math
import re
import shutil
import sqlite3

import pytest
import yaml

from tcjudge.errors import JudgeInputError
from tcjudge.problems.checkers.output_validator import OutputValidator
from tcjudge.problems.loader import load_problem
from tcjudge.problems.checkers import output_validator
from tcjudge.problems.scoring import GROUPS, Group, Grading, ScoreRange
from tcjudge.problems.scoring import TestScore as Rule  # (a name pytest would take for a test class)
from tcjudge.reports.history import History
from tcjudge.verdicts import Verdict

from .conftest import TESTDATA

TRISUM = TESTDATA / "kattis" / "trisum"
AC, WA, TLE, RE = Verdict.AC, Verdict.WA, Verdict.TLE, Verdict.RE


def _settings(group: str) -> dict:
    return yaml.safe_load((TRISUM / "data" / group / "testdata.yaml").read_text())


def test_trisum_reads_its_groups_and_their_scores():
    problem = load_problem(TRISUM)
    assert problem.grading is not None and problem.grading.root.name == ""
    root = problem.grading.root
    assert [item.name for item in root.items] == ["sample", "secret"]
    assert root.ignore_sample and not root.stop_on_reject and (root.low, root.high) == (0, 100)
    secret = root.items[1]
    assert [g.name for g in secret.items] == ["secret/group1", "secret/group2"]
    assert secret.verdict_mode == "first_error" and secret.any_accepted and secret.score_mode == "sum"
    assert [g.score_mode for g in secret.items] == ["min", "min"] and all(g.stop_on_reject for g in secret.items)
    rules = {t.name: t.scoring.maximum for t in problem.tests}
    assert rules == {"sample/1": 0, "secret/group1/01-one": 30, "secret/group1/02-max": 30,
                     "secret/group2/01-odd": 70, "secret/group2/02-max": 70}


def test_check_grades_trisum_with_its_scores(judge, tmp_path):
    code, out, err = judge("--problems", TRISUM.parent, "check", "trisum", "-j", "2", "--json", tmp_path / "r.json")
    assert code == 0, out + err
    solutions = {s["solution"].rsplit("/", 1)[-1]: s for s in json.loads((tmp_path / "r.json").read_text())["solutions"]}
    group1, group2 = _settings("secret/group1")["accept_score"], _settings("secret/group2")["accept_score"]
    # by hand: group1's two tests are accepted (min of 30 and 30), group2's first is wrong (min stops
    # there: 0); secret sums its groups and accepts when any is accepted; data/ ignores the sample
    assert (group1, group2) == (30, 70)
    partial = solutions["float_formula.py"]
    assert partial["verdict"] == "AC" and partial["score"]["total"] == 30 == group1
    assert {g["name"]: (g["verdict"], g["score"]) for g in partial["score"]["groups"]} == {
        "sample": ("AC", 0), "secret/group1": ("AC", 30), "secret/group2": ("WA", 0), "secret": ("AC", 30)}
    assert partial["expected_score"] == {"low": 0, "high": 100, "low_inclusive": True, "high_inclusive": False}
    assert [t.get("score") for t in partial["tests"]] == [0, 30, 30, 0, None]  # (group2's last: not run)
    assert solutions["formula.py"]["score"]["total"] == 100 == group1 + group2
    assert (solutions["off_by_one.py"]["verdict"], solutions["off_by_one.py"]["score"]["total"]) == ("WA", 0)
    assert "AC, score in [0, 100)  AC 30" in out and "3 of 3 solutions got their expected verdict" in out


def test_grade_shows_each_test_and_group_score(judge):
    code, out, _ = judge("--problems", TRISUM.parent, "grade", TRISUM / "submissions/partially_accepted/float_formula.py",
                         "--problem", "trisum", "-j", "1")
    assert code == 0, out
    assert "score 30 of 100\n  sample: 0 of 0 (AC)\n  secret/group1: 30 of 30 (AC)\n  secret/group2: 0 of 70 (WA)" in out
    assert "secret/group1/02-max  AC         30" in out


def test_a_partially_accepted_submission_with_the_full_score_is_a_mismatch(tmp_path, judge):
    package = tmp_path / "packages" / "trisum"
    shutil.copytree(TRISUM, package)
    shutil.copy(package / "submissions/accepted/formula.py", package / "submissions/partially_accepted/full.py")
    code, out, _ = judge("--problems", package.parent, "check", "-j", "2")
    assert code == 1
    assert "MISMATCH testdata" not in out and "partially_accepted/full.py: AC 100 (expected AC, score in [0, 100))" in out


def test_a_history_file_without_score_columns_is_migrated(tmp_path, judge):
    """A history written before scores: its rows stay readable, the new columns are added and NULL."""
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE runs (id INTEGER PRIMARY KEY, started REAL NOT NULL, finished REAL, command TEXT NOT NULL,
            argv TEXT NOT NULL, machine TEXT NOT NULL, engine TEXT NOT NULL, status TEXT NOT NULL);
        CREATE TABLE results (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL, problem TEXT NOT NULL,
            problem_hash TEXT NOT NULL, time_limit REAL NOT NULL, memory_limit INTEGER NOT NULL, solution TEXT NOT NULL,
            solution_hash TEXT NOT NULL, expected TEXT, verdict TEXT NOT NULL, compile_message TEXT NOT NULL,
            baseline_mib REAL NOT NULL, all_tests INTEGER NOT NULL, full INTEGER NOT NULL, reusable INTEGER NOT NULL,
            tests_from INTEGER);
        CREATE TABLE tests (result_id INTEGER NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL, verdict TEXT,
            cpu_ms REAL NOT NULL, wall_ms REAL NOT NULL, memory_mib REAL NOT NULL, message TEXT NOT NULL,
            returned TEXT NOT NULL, input TEXT NOT NULL, output TEXT NOT NULL, PRIMARY KEY (result_id, position));
        INSERT INTO runs VALUES (1, 1.0, 2.0, 'check', 'check', 'm', 'e', 'complete');
        INSERT INTO results VALUES (1, 1, 'p', 'h', 1, 256, '/s.py', 'x', 'AC', 'WA', '', 0, 1, 1, 1, NULL);
        INSERT INTO tests VALUES (1, 0, 't1', 'WA', 1, 1, 1, 'wrong', '', '', '');
    """)
    db.commit()
    db.close()
    history = History(path)
    try:
        assert history.timeline("/s.py", None, 5)[0][7] == "WA"
        assert history._tests(1)[0].score is None and history._tests(1)[0].verdict is WA
        assert {row[1] for row in history.db.execute("PRAGMA table_info(results)")} >= {"score"}
    finally:
        history.close()
    code, out, err = judge("--history", path, "--problems", TRISUM.parent, "check", "trisum", "-j", "2")
    assert code == 0, out + err
    with sqlite3.connect(path) as db:
        assert sorted(row[0] for row in db.execute("SELECT score FROM results WHERE problem = 'trisum'")) == [0, 30, 100]


# -- the default grader (problemtools' default_grader), rule by rule ------------------------------------

def _grade(group: Group, outcomes: dict, model: str = "legacy"):
    return Grading(Group("", [group], stop_on_reject=False), model).grade(outcomes)


def _tests(*pairs):
    return {f"t{i}": pair for i, pair in enumerate(pairs)}


@pytest.mark.parametrize("settings, outcomes, verdict, score", [
    ({}, [(AC, 1), (WA, 0), (TLE, 0)], WA, 1),  # worst_error, sum; break: the TLE after the WA is not graded
    ({"stop_on_reject": False}, [(AC, 1), (WA, 0), (TLE, 0)], TLE, 1),  # continue: TLE is worse than WA
    ({"stop_on_reject": False, "verdict_mode": "first_error"}, [(AC, 1), (WA, 0), (TLE, 0)], WA, 1),
    ({"stop_on_reject": False, "verdict_mode": "always_accept"}, [(WA, 0), (AC, 5)], AC, 5),
    ({"stop_on_reject": False, "any_accepted": True}, [(WA, 0), (AC, 5)], AC, 5),
    ({"stop_on_reject": False, "score_mode": "avg"}, [(AC, 2), (AC, 4)], AC, 3),
    ({"stop_on_reject": False, "score_mode": "max"}, [(AC, 2), (RE, 0), (AC, 4)], RE, 4),
    ({"stop_on_reject": False, "score_mode": "min"}, [(AC, 2), (AC, 4)], AC, 2),
])
def test_the_default_grader(settings, outcomes, verdict, score):
    outcomes = _tests(*outcomes)
    scored = _grade(Group("g", list(outcomes), **settings), outcomes)
    group = scored.groups[-1]
    assert (group.verdict, group.score) == (verdict, score)
    assert scored.total == (score if verdict is AC else 0)  # a rejected submission's score is ignored


def test_ignore_sample_grades_on_secret_alone():
    outcomes = {"sample/1": (WA, 0), "secret/1": (AC, 7)}
    root = Group("", [Group("sample", ["sample/1"]), Group("secret", ["secret/1"])], ignore_sample=True,
                 stop_on_reject=False)
    assert (Grading(root).grade(outcomes).verdict, Grading(root).grade(outcomes).total) == (AC, 7)
    root.ignore_sample = False
    assert Grading(root).grade(outcomes).verdict is WA


def test_a_group_score_outside_its_range_is_the_problems_fault():
    outcomes = _tests((AC, 60))
    scored = _grade(Group("g", list(outcomes), low=0, high=50), outcomes)
    assert "the score 60 of group g is outside its range [0, 50]" in scored.fault


@pytest.mark.parametrize("rule, accepted, written, multiplier, expected", [
    (Rule("legacy", 30, 0), True, None, None, (30, "")),
    (Rule("legacy", 30, -5), False, None, None, (-5, "")),
    (Rule("legacy", 30, 0, "allowed"), True, 12.5, None, (12.5, "")),
    (Rule("legacy", 30, 0, "forbidden"), True, 12.5, None, (None, "which this problem does not allow")),
    (Rule("legacy", 30, 0, "required"), True, None, None, (None, "without writing score.txt")),
    (Rule("bounded", 20), True, None, 0.25, (5, "")),
    (Rule("bounded", 20), True, None, 1.5, (None, "not a number between 0 and 1")),
    (Rule("bounded", 20), True, 21, None, (None, "more than the test's maximum 20")),
    (Rule("bounded", 20), False, None, None, (0, "")),
    (Rule("unbounded"), True, None, None, (None, "without writing score.txt")),
    (Rule("unbounded"), True, None, 0.5, (None, "without a bounded maximum")),
    (Rule("unscored"), True, 3, None, (None, "does not allow")),
    (Rule("unscored"), True, None, None, (None, "")),
    (Rule("sample"), True, 99, None, (None, "")),  # a sample's score.txt is ignored
])
def test_a_tests_score(rule, accepted, written, multiplier, expected):
    score, fault = rule.score(accepted, written, multiplier)
    assert score == expected[0] and expected[1] in fault and bool(fault) == bool(expected[1])


def test_score_ranges():
    partial = ScoreRange(0, 100, high_inclusive=False)
    assert partial.contains(0) and partial.contains(99.5) and not partial.contains(100) and not partial.contains(None)
    assert str(partial) == "score in [0, 100)" and str(ScoreRange(1, 2)) == "score in [1, 2]"
    assert ScoreRange().contains(-math.inf + 1e308)


# -- the output validator's score files -------------------------------------------------------------------

SCORE_FILES = """\
import sys
feedback = sys.argv[3]
words = sys.stdin.read().split()
for name, value in zip(words[::2], words[1::2]):
    open(feedback + name, "w").write(value)
sys.exit(42 if "reject" not in words else 43)
"""


@pytest.mark.parametrize("output, score, multiplier, fault", [
    (b"score.txt 12.5", 12.5, None, ""),
    (b"score_multiplier.txt 0.5", None, 0.5, ""),
    (b"", None, None, ""),
    (b"score.txt many", None, None, "holding 'many', not a number"),
    (b"score.txt 1 score_multiplier.txt 1", None, None, "wrote both"),
    (b"score.txt 1 reject 1", None, None, "rejected the output and wrote score.txt"),
])
def test_the_validator_score_files(tmp_path, output, score, multiplier, fault):
    (tmp_path / "validate.py").write_text(SCORE_FILES)
    validator = OutputValidator(tmp_path / "validate.py", []).with_flags(["x"])
    outcome = output_validator.check(b"", b"", output, validator)
    assert (outcome.score, outcome.multiplier) == (score, multiplier)
    assert (fault in outcome.message and outcome.judge_fault) if fault else outcome.ok


# -- 2025-09: test_group.yaml -------------------------------------------------------------------------------

HALF_OR_ALL = """\
import sys
n = int(open(sys.argv[1]).read())
k = int(sys.stdin.read())
if not 0 <= k <= n:
    sys.exit(43)
open(sys.argv[3] + "score_multiplier.txt", "w").write(str(k / n))
sys.exit(42)
"""
INPUTS = {"sample/1": 4, "secret/a/1": 10, "secret/a/2": 6, "secret/b/1": 8, "secret/b/2": 4}


def _package_2025(tmp_path, b_settings="max_score: 60\nscore_aggregation: min\n"):
    package = tmp_path / "packages" / "half"
    (package / "output_validator").mkdir(parents=True)
    (package / "output_validator" / "validate.py").write_text(HALF_OR_ALL)
    (package / "problem.yaml").write_text("problem_format_version: 2025-09\ntype: scoring\nname: Half\n"
                                          "limits:\n  time_limit: 1.0\n")
    for name, n in INPUTS.items():
        (package / "data" / name).parent.mkdir(parents=True, exist_ok=True)
        (package / "data" / f"{name}.in").write_text(f"{n}\n")
        (package / "data" / f"{name}.ans").write_text("\n")
    (package / "data" / "secret" / "a" / "test_group.yaml").write_text("max_score: 40\nscore_aggregation: sum\n")
    (package / "data" / "secret" / "b" / "test_group.yaml").write_text(b_settings)
    return package


@pytest.mark.parametrize("b_settings", ["max_score: 60\nscore_aggregation: min\n",
                                        "scoring:\n  score: 60\n  aggregation: min\n"])  # the drafts' form
def test_a_2025_09_package_scores_by_max_score_and_aggregation(tmp_path, judge, b_settings):
    package = _package_2025(tmp_path, b_settings)
    problem = load_problem(package)
    assert problem.grading.model == GROUPS and problem.grading.root.name == "secret"
    assert {t.name: (t.scoring.mode, t.scoring.maximum) for t in problem.tests} == {
        "sample/1": ("sample", 1.0), "secret/a/1": ("bounded", 20), "secret/a/2": ("bounded", 20),
        "secret/b/1": ("bounded", 60), "secret/b/2": ("bounded", 60)}
    solution = tmp_path / "half.py"
    solution.write_text("n = int(input())\nprint(n // 2 if n > 5 else n)\n")
    code, out, _ = judge("--problems", package.parent, "grade", solution, "--problem", "half", "-j", "1",
                         "--json", tmp_path / "r.json")
    assert code == 0, out
    scored = json.loads((tmp_path / "r.json").read_text())["score"]
    # by hand: a sums two tests of 20 at half each (10 + 10); b takes the least of 60 x 1/2 and 60 x 1
    assert [t["score"] for t in json.loads((tmp_path / "r.json").read_text())["tests"][1:]] == [10, 10, 30, 60]
    assert scored["total"] == 20 + 30 == 50 and scored["max"] == 100
    assert {g["name"]: g["score"] for g in scored["groups"]} == {"secret/a": 20, "secret/b": 30}


@pytest.mark.parametrize("edit, message", [
    (lambda p: (p / "data/secret/b/test_group.yaml").write_text("score_aggregation: min\n"),
     "a group may be unbounded only when data/secret is"),
    (lambda p: (p / "data/secret/b/test_group.yaml").write_text("max_score: 60\nscore_aggregation: mean\n"),
     "score_aggregation: expected sum, min or pass-fail, got 'mean'"),
    (lambda p: (p / "data/secret/b/test_group.yaml").unlink(), "data/secret holds test groups"),
    (lambda p: (p / "data/secret/b/test_group.yaml").write_text("max_score: 60\nrequire_pass: secret/c\n"),
     "require_pass: 'secret/c' is not sample or an earlier group"),
    (lambda p: (p / "data/secret/b/testdata.yaml").write_text("{}\n"), "both testdata.yaml and test_group.yaml"),
])
def test_broken_group_settings_are_refused_with_a_reason(tmp_path, edit, message):
    package = _package_2025(tmp_path)
    edit(package)
    with pytest.raises(JudgeInputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_problem(package)


def test_require_pass_and_pass_fail_groups():
    outcomes = {"sample/1": (WA, None), "secret/a/1": (AC, None), "secret/b/1": (AC, None)}
    a = Group("secret/a", ["secret/a/1"], "pass-fail", "first_error", stop_on_reject=False, low=0, high=40, full=40)
    b = Group("secret/b", ["secret/b/1"], "pass-fail", "first_error", stop_on_reject=False, low=0, high=60, full=60,
              require_pass=("sample",))
    root = Group("secret", [a, b], "sum", "first_error", any_accepted=True, stop_on_reject=False, low=0, high=100)
    scored = Grading(root, GROUPS).grade(outcomes)
    assert scored.total == 40 and [g.score for g in scored.groups] == [40, 0]  # b needed the sample passed


# -- per-group validator flags -----------------------------------------------------------------------------

def test_test_group_validator_flags_apply_to_their_group(tmp_path, judge):
    """issue 21: test_group.yaml's output_validator_args (2025-09) were ignored: float tolerance
    missing gave WA. Now the secret group's flags judge its tests (and its subfolders'), not the sample."""
    package = tmp_path / "packages" / "addtwo"
    shutil.copytree(TESTDATA / "kattis" / "addtwo", package)
    spec = package / "problem.yaml"
    spec.write_text(spec.read_text().replace("validator_flags: float_tolerance 1e-6\n", ""))
    (package / "data" / "secret" / "test_group.yaml").write_text("output_validator_args: [float_tolerance, '1e-6']\n")
    (package / "data" / "secret" / "deeper").mkdir()
    shutil.move(package / "data" / "secret" / "03-large.in", package / "data" / "secret" / "deeper" / "03-large.in")
    shutil.move(package / "data" / "secret" / "03-large.ans", package / "data" / "secret" / "deeper" / "03-large.ans")
    problem = load_problem(package)
    assert [t.check is not None for t in problem.tests] == [False, False, True, True, True]
    code, out, _ = judge("--problems", package.parent, "grade", package / "submissions/accepted/sum.py",
                         "--problem", "addtwo", "-j", "1")
    assert code == 1
    verdicts = dict(re.findall(r"^(sample/\S+|secret/\S+) +(\w+)", out, re.M))
    assert verdicts == {"sample/1": "WA", "sample/2": "AC", "secret/01-zero": "AC", "secret/02-fraction": "AC",
                        "secret/deeper/03-large": "AC"}, out


def test_a_legacy_group_adds_its_flags_after_problem_yaml(tmp_path):
    package = tmp_path / "packages" / "addtwo"
    shutil.copytree(TESTDATA / "kattis" / "addtwo", package)
    (package / "data" / "secret" / "testdata.yaml").write_text("output_validator_flags: case_sensitive\n")
    problem = load_problem(package)
    secret = problem.tests[-1].check.settings
    assert secret.case_sensitive and secret.float_absolute == 1e-6 and problem.tests[0].check is None
    (package / "data" / "secret" / "testdata.yaml").write_text("output_validator_flags: loose\n")
    with pytest.raises(JudgeInputError, match="unknown output validator flag 'loose'"):
        load_problem(package)


def test_pass_fail_packages_have_no_grading():
    assert load_problem(TESTDATA / "kattis" / "addtwo").grading is None


def test_a_legacy_scoring_packages_accepted_are_judged_on_their_final_verdict_and_timed_once(judge, tmp_path):
    """issue 46 (an outside tester's unseen packages, so2016d's konami and klartext): a legacy scoring
    package files partial solutions under accepted/; problemtools checks their final verdict ("OK: AC
    (18)", warning of the score), the judge's per-test rule made them MISMATCH. And their timing run
    stopped at a first failure, so a grader reading every test crashed (a false IE warning), and was
    never reused: the check graded each again. trisum with no limit, its partial solution in accepted/."""
    package = tmp_path / "packages" / "trisum"
    shutil.copytree(TRISUM, package)
    (package / ".timelimit").unlink()
    for partial in (package / "submissions" / "partially_accepted").iterdir():
        partial.rename(package / "submissions" / "accepted" / partial.name)
    code, out, err = judge("--problems", package.parent, "check", "trisum")
    assert code == 0, out + err
    assert "Timing 2 submissions of trisum" in out and "warning" not in err, out + err
    assert re.search(r"accepted/float_formula\.py +AC +AC 30 .* ok", out), out
    assert "3 of 3 solutions got their expected verdict" in out and "2 of 3 results reused from the history" in out, out
    # reused from the timing that this check began with, they had no earlier run (before: "1 solution had")
    assert "changes since the last run: none (3 solutions had no earlier run)" in out, out


def test_a_test_after_its_groups_first_rejection_decides_nothing(judge, tmp_path):
    """on_reject: break grades a group only to its first rejected test, and problemtools judges none
    after it (breaker 50b: ceoi2026 vim's wrong_answer/ submission was a MISMATCH for a TLE there, OK in
    problemtools). Before: 'secret/group2/02-max got RTE, but submissions/wrong_answer/ permits only AC, WA'."""
    package = tmp_path / "trisum"
    shutil.copytree(TRISUM, package)
    (package / "submissions" / "wrong_answer" / "crashes_late.py").write_text(
        "n = int(input())\nif n == 10 ** 18:\n    raise SystemExit(3)\nprint(n * (n - 1) // 2 + 1)\n")
    code, out, err = judge("--problems", tmp_path, "check", "trisum", "--json", tmp_path / "r.json")
    assert code == 0, out + err
    solutions = {s["solution"].rsplit("/", 1)[-1]: s for s in json.loads((tmp_path / "r.json").read_text())["solutions"]}
    late = solutions["crashes_late.py"]
    assert late["verdict"] == "WA" and [t["verdict"] for t in late["tests"]][-1] is None  # (not read: not run)
    assert "4 of 4 solutions got their expected verdict" in out


# Tests a grading will not read (on_reject: break) are not run, as problemtools does not run them
# (breaker 48: so24/kopafika's groups took 21 minutes, mostly tests after a group's rejection).

def test_a_rejection_in_a_breaking_group_leaves_its_later_items_unread():
    inner = Group("secret/a", ["a1", "a2", "a3"])  # (on_reject: break, the default)
    later = Group("secret/b", ["b1"])
    unread = Grading(Group("secret", [inner, later], stop_on_reject=False)).unread()
    unread.reject("a2")
    assert [name for name in ("a1", "a2", "a3", "b1") if unread.skips(name)] == ["a3"]
    unread.reject("a1")  # an earlier rejection, come in later (another worker's): from there on
    assert [name for name in ("a1", "a2", "a3", "b1") if unread.skips(name)] == ["a2", "a3"]


def test_a_rejected_group_is_a_rejected_item_of_the_group_around_it_while_its_verdict_surely_is():
    def skipped(**settings):
        inner = Group("secret/a", ["a1", "a2"], stop_on_reject=False, **settings)
        unread = Grading(Group("secret", [inner, Group("secret/b", ["b1"])])).unread()
        unread.reject("a1")
        return [name for name in ("a1", "a2", "b1") if unread.skips(name)]

    assert skipped() == ["b1"]  # the default grader: a rejected test rejects its group
    assert skipped(verdict_mode="first_error") == ["b1"]
    assert skipped(any_accepted=True) == []  # a2 may still accept secret/a
    assert skipped(verdict_mode="always_accept") == []
    assert Grading(Group("", ["t"], stop_on_reject=False)).unread() is None  # nothing breaks: nothing to track


def test_grading_runs_no_test_after_a_groups_rejection_and_scores_as_before(judge, tmp_path):
    code, out, _ = judge("--problems", TRISUM.parent, "grade", TRISUM / "submissions" / "partially_accepted" /
                         "float_formula.py", "--problem", "trisum", "-j", "2", "--json", tmp_path / "r.json")
    tests = {t["name"]: t for t in json.loads((tmp_path / "r.json").read_text())["tests"]}
    assert tests["secret/group2/01-odd"]["verdict"] == "WA"
    assert tests["secret/group2/02-max"]["verdict"] is None  # (before: AC, run though no grading reads it)
    assert "score 30 of 100" in out, out
