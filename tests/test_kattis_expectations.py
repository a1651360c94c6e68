"""What a package's submissions must get (issue 21): the 2025-09 submissions/ folders, including
rejected/ and brute_force/, submissions/submissions.yaml and @EXPECTED_RESULTS@ comments
(testdata/kattis/digitsum, testdata/kattis/parity), each rule alone and through `judge check`."""

from __future__ import annotations

import json
import shutil
from types import SimpleNamespace

import pytest

from tcjudge.errors import JudgeInputError
from tcjudge.languages import EXTENSIONS
from tcjudge.problems.catalog import Catalog
from tcjudge.problems.expectations import (Expectation, PackageExpectations, Requirement, covers,
                                           tagged_verdicts)
from tcjudge.verdicts import Verdict

from .conftest import TESTDATA

PACKAGES = TESTDATA / "kattis"
AC, WA, TLE, RE, CE, IE = Verdict.AC, Verdict.WA, Verdict.TLE, Verdict.RE, Verdict.CE, Verdict.IE
TESTS = [SimpleNamespace(name=name) for name in ("sample/1", "secret/small/01", "secret/large/01")]


def _expectation(package: str, submission: str) -> Expectation:
    root = PACKAGES / package / "submissions"
    return PackageExpectations(root).expectation(root / submission)


def _tests(*verdicts, names=("sample/1", "secret/small/01", "secret/large/01")):
    return [(name, verdict, "") for name, verdict in zip(names, verdicts)]


@pytest.mark.parametrize("pattern, path, matches", [
    ("accepted", "accepted/a.py", True),  # a folder covers what is in it
    ("accepted/*", "accepted/a.py", True),
    ("accepted/*", "accepted", False),
    ("*.py", "accepted/a.py", False),  # * stays within a name
    ("*/a.{py,cpp}", "accepted/a.cpp", True),  # braces
    ("*/a.{py,cpp}", "accepted/a.java", False),
    ("secret/*-easy", "secret/01-easy", True),
    ("secret", "secret/group1/01", True),
    ("sample", "secret/01", False),
    ("[ab].py", "a.py", False),  # brackets are not the format's: taken as they are
])
def test_globs_as_the_format_has_them(pattern, path, matches):
    assert covers(pattern, path) is matches


@pytest.mark.parametrize("folder, grades", [
    # (the submission's tests' verdicts, met?) for each default folder of the format
    ("accepted", [((AC, AC, AC), True), ((AC, WA, AC), False)]),
    ("wrong_answer", [((AC, WA, None), True), ((AC, TLE, None), False), ((AC, AC, AC), False)]),
    ("time_limit_exceeded", [((AC, AC, TLE), True), ((AC, WA, None), False)]),
    ("run_time_error", [((RE, None, None), True), ((AC, AC, AC), False)]),
    ("rejected", [((WA, None, None), True), ((AC, TLE, None), True), ((RE, None, None), True),
                  ((AC, AC, AC), False)]),
    ("brute_force", [((AC, AC, TLE), True), ((AC, RE, None), True), ((AC, WA, None), False),
                     ((AC, AC, AC), False)]),
])
def test_each_folder_means_what_the_format_says(tmp_path, folder, grades):
    (tmp_path / folder).mkdir()
    (tmp_path / folder / "x.py").write_text("")
    expectation = PackageExpectations(tmp_path).expectation(tmp_path / folder / "x.py")
    for verdicts, met in grades:
        final = next((v for v in verdicts if v not in (AC, None)), AC)
        assert (expectation.mismatch(final, _tests(*verdicts)) is None) is met, (folder, verdicts)
    assert expectation.mismatch(CE, []) == "does not compile"  # no folder expects a compile error
    assert expectation.mismatch(IE, _tests(IE)) is not None


@pytest.mark.parametrize("folder, grades", [
    # the legacy format's words (issue 46): run_time_error/ "Crashes for some test file", time_limit_exceeded/
    # "Too slow for some test file. May also give wrong answer but not crash for any test file"
    ("accepted", [((AC, AC, AC), True), ((AC, WA, AC), False)]),
    ("wrong_answer", [((AC, WA, None), True), ((AC, TLE, None), False), ((AC, RE, WA), False)]),
    ("time_limit_exceeded", [((WA, AC, TLE), True), ((AC, WA, WA), False), ((WA, RE, TLE), False)]),
    ("run_time_error", [((WA, RE, AC), True), ((TLE, WA, RE), True), ((AC, WA, TLE), False)]),
])
def test_a_legacy_packages_folders_mean_what_the_legacy_format_says(tmp_path, folder, grades):
    (tmp_path / folder).mkdir()
    (tmp_path / folder / "x.py").write_text("")
    expectation = PackageExpectations(tmp_path, legacy=True).expectation(tmp_path / folder / "x.py")
    for verdicts, met in grades:
        final = next((v for v in verdicts if v not in (AC, None)), AC)
        assert (expectation.mismatch(final, _tests(*verdicts)) is None) is met, (folder, verdicts)


# a submission's answer to each test's input: 'wa' prints a wrong one, 're' crashes, 'tle' loops
MIXED = ("import sys\nwhat = {WHAT}.get(sys.stdin.read().strip(), 'ok')\nif what == 're':\n    raise SystemExit(3)\n"
         "while what == 'tle':\n    pass\nprint(7 if what == 'ok' else 8)\n")


def _mixed_package(root, version: str | None):
    """A tiny package whose run_time_error/ submission gets WA and RTE, and whose time_limit_exceeded/
    one gets WA and TLE, on its three tests."""
    root.mkdir(parents=True)
    (root / "problem.yaml").write_text("name: Mixed\n" + (f"problem_format_version: {version}\n" if version else ""))
    (root / ".timelimit").write_text("1\n")
    for name in ("sample/1", "secret/2", "secret/3"):
        (root / "data" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "data" / f"{name}.in").write_text(name[-1] + "\n")
        (root / "data" / f"{name}.ans").write_text("7\n")
    for folder, what in (("run_time_error", {"1": "wa", "2": "re"}), ("time_limit_exceeded", {"1": "wa", "3": "tle"})):
        (root / "submissions" / folder).mkdir(parents=True)
        (root / "submissions" / folder / "mixed.py").write_text(MIXED.replace("{WHAT}", repr(what)))


def test_a_legacy_package_permits_a_wrong_answer_beside_a_crash_or_time_out(tmp_path, judge):
    """issue 46: every test run (--all-tests, a scoring package), a legacy run_time_error/ submission
    with a WA on one test was a mismatch ('permits only AC, RTE'), as was a time_limit_exceeded/ one:
    the 2023-07 format's rules, which problemtools does not apply to a legacy package."""
    _mixed_package(tmp_path / "legacy" / "mixed", None)
    code, out, err = judge("--problems", tmp_path / "legacy", "check", "--all-tests", "-j", "1")
    assert code == 0, out + err
    assert "2 of 2 solutions got their expected verdict" in out, out
    _mixed_package(tmp_path / "current" / "mixed", "2023-07-draft")  # the 2023-07 rules stand
    code, out, err = judge("--problems", tmp_path / "current", "check", "--all-tests", "-j", "1")
    assert code == 1, out + err
    assert "run_time_error/mixed.py: WA (expected RE): sample/1 got WA, but submissions/run_time_error/ permits only AC, RTE" in out, out
    assert ("time_limit_exceeded/mixed.py: WA (expected TLE): sample/1 got WA, but submissions/time_limit_exceeded/ "
            "permits only AC, TLE") in out, out


def test_a_folder_nothing_speaks_of_has_no_expectation(tmp_path):
    (tmp_path / "mixed").mkdir()
    (tmp_path / "mixed" / "x.py").write_text("print(1)\n")
    assert PackageExpectations(tmp_path).expectation(tmp_path / "mixed" / "x.py") is None


def test_submissions_yaml_adds_and_overrides_by_glob():
    small_only = _expectation("digitsum", "mixed/small_only.py")
    assert [r.tests for r in small_only.requirements] == ["sample", "secret/small", "secret/large"]
    assert small_only.every_test and str(small_only) == "by test group"
    assert small_only.mismatch(TLE, _tests(AC, AC, TLE)) is None
    assert "secret/small/01 got TLE, but submissions.yaml:" in small_only.mismatch(TLE, _tests(AC, TLE, TLE))
    assert "no test of secret/large got TLE" in small_only.mismatch(AC, _tests(AC, AC, AC))
    # "brute_force:" overrides the folder's defaults key by key: its sets stay, its time use goes
    brute = _expectation("digitsum", "brute_force/walks_up.py")
    assert len(brute.requirements) == 1 and brute.requirements[0].use_for_time_limit is False
    assert (brute.requirements[0].permitted, brute.requirements[0].required) == ({AC, TLE, RE}, {TLE, RE})
    assert brute.time_limit_tests("lower", TESTS) == brute.time_limit_tests("upper", TESTS) == []
    assert str(brute) == "TLE/RE"
    message = _expectation("digitsum", "wrong_answer/skips_last.py")
    assert message.mismatch(WA, [("sample/1", WA, "token 1 (answer line 1): expected '15', got '10'")]) is None
    assert "no test said" in message.mismatch(WA, [("sample/1", WA, "expected '36', got '27'")])


def test_expected_results_comments():
    assert _expectation("parity", "mixed/remainder.cpp").final == {AC, WA}
    assert _expectation("parity", "mixed/counts_down.py").final == {AC, TLE}  # any case, DOMjudge's names
    rejected = _expectation("parity", "rejected/binary_digits.py")
    assert str(rejected) == "RE" and rejected.mismatch(WA, _tests(WA)) == ""
    # in one of the four legacy folders the tag is ignored, as DOMjudge ignores it
    assert _expectation("parity", "wrong_answer/always_even.py").verdict is WA
    tagged = Expectation("AC/WA", frozenset({AC, WA}),
                         (Requirement(frozenset({AC, WA}), frozenset({AC, WA}), "@EXPECTED_RESULTS@"),))
    assert tagged.mismatch(AC, _tests(AC, AC, AC)) is None and tagged.mismatch(WA, _tests(AC, WA)) is None
    assert tagged.mismatch(TLE, _tests(AC, TLE)) == ""  # the grade itself is not one of them
    assert tagged.allows_accepted


def test_a_bad_tag_or_rule_names_its_file_and_line(tmp_path):
    source = tmp_path / "x.py"
    source.write_text("\n# @EXPECTED_RESULTS@: CORRECT, SLOW\n")
    with pytest.raises(JudgeInputError, match="unknown verdict 'SLOW'") as err:
        tagged_verdicts(source)
    assert err.value.line == 2
    source.write_text("/* @EXPECTED_RESULTS@: TIMELIMIT */\n")
    assert tagged_verdicts(source) == ({TLE}, 1)
    (tmp_path / "submissions.yaml").write_text("accepted:\n  permitted: [AC, OK]\n")
    (tmp_path / "accepted").mkdir()
    with pytest.raises(JudgeInputError, match="'OK' is not one of AC, WA, TLE, RTE"):
        PackageExpectations(tmp_path).expectation(tmp_path / "accepted")


def test_a_tag_that_asks_for_a_person_expects_nothing(tmp_path):
    # DOMjudge's example_problems/hello files some submissions under check_manually/ with this tag
    # alone; before, it was "names no verdict", and the error refused the whole package
    source = tmp_path / "x.c"
    source.write_text("/*\n * @EXPECTED_RESULTS@: CHECK-MANUALLY\n */\n")
    assert tagged_verdicts(source) is None
    source.write_text("// @EXPECTED_RESULTS@: CHECK-MANUALLY, WRONG-ANSWER\n")
    assert tagged_verdicts(source) == ({WA}, 1)


def test_domjudges_output_limit_tag_is_the_judges_wa(tmp_path):
    # DOMjudge's example_problems/hello/submissions/output_limit/: unknown before, refusing the package
    source = tmp_path / "x.cc"
    source.write_text("// @EXPECTED_RESULTS@: OUTPUT-LIMIT\n")
    assert tagged_verdicts(source) == ({WA}, 1)


def _timed(expectation: Expectation, role: str) -> list[str]:
    return [test.name for test in expectation.time_limit_tests(role, TESTS)]


def test_the_tests_that_bound_a_computed_time_limit_follow_the_format():
    every = [test.name for test in TESTS]
    assert _timed(_expectation("digitsum", "accepted/digits.py"), "lower") == every
    assert _timed(_expectation("digitsum", "wrong_answer/skips_last.py"), "lower") == every
    for role in ("lower", "upper"):
        assert _timed(_expectation("digitsum", "rejected/long_numbers_plus_one.py"), role) == []
        assert _timed(_expectation("parity", "mixed/counts_down.py"), role) == []  # AC or TLE: neither bound
    # issue 21: rules on test groups bound the limit with their own tests (they were left out): mixed/small_only.py
    # may not time out on sample and secret/small (TLE not permitted there), and must on secret/large
    assert _timed(_expectation("digitsum", "mixed/small_only.py"), "lower") == ["sample/1", "secret/small/01"]
    assert _timed(_expectation("digitsum", "mixed/small_only.py"), "upper") == ["secret/large/01"]
    assert _timed(Expectation.of(AC), "lower") == every and _timed(Expectation.of(AC), "upper") == []
    assert _timed(Expectation.of(TLE), "upper") == every


def test_use_for_time_limit_on_a_group_of_tests(tmp_path):
    (tmp_path / "mixed").mkdir()
    (tmp_path / "mixed" / "a.py").write_text("")
    (tmp_path / "submissions.yaml").write_text(
        "mixed/a.py:\n  secret/small:\n    permitted: [AC]\n    use_for_time_limit: false\n"
        "  secret/large:\n    permitted: [AC, WA, TLE]\n    use_for_time_limit: lower\n")
    expectation = PackageExpectations(tmp_path).expectation(tmp_path / "mixed" / "a.py")
    assert _timed(expectation, "lower") == ["secret/large/01"] and _timed(expectation, "upper") == []


def test_check_honours_every_expectation(judge, tmp_path):
    code, out, err = judge("--problems", PACKAGES, "check", "digitsum", "parity", "-j", "2", "--json",
                           tmp_path / "check.json")
    assert code == 0, out + err
    assert "11 of 11 solutions got their expected verdict" in out
    solutions = {s["solution"].split("/submissions/")[1]: s for s in json.loads((tmp_path / "check.json").read_text())[
        "solutions"]}
    assert solutions["rejected/long_numbers_plus_one.py"]["expected"] == "WA/TLE/RE"
    assert solutions["brute_force/walks_up.py"]["verdict"] == "TLE"
    assert solutions["mixed/small_only.py"]["total"] == 4 and all(  # a rule on groups: every test ran
        t["verdict"] for t in solutions["mixed/small_only.py"]["tests"])
    assert all(s["matched"] and s["mismatch"] == "" for s in solutions.values())


def test_a_submission_against_its_rules_is_a_mismatch(judge, tmp_path):
    package = tmp_path / "packages" / "digitsum"
    shutil.copytree(PACKAGES / "digitsum", package)
    rules = package / "submissions" / "submissions.yaml"
    rules.write_text(rules.read_text() + "rejected/*:\n  required: [RTE]\n")
    code, out, _ = judge("--problems", package.parent, "check", "-j", "2")
    assert code == 1
    assert ("rejected/long_numbers_plus_one.py: WA (expected RE): no test got RTE, as submissions.yaml:16 "
            "(rejected/*) requires") in out, out
    assert "5 of 6 solutions got their expected verdict" in out


def test_our_own_folders_still_expect_one_verdict():
    catalog = Catalog(TESTDATA / "problems", TESTDATA / "stored", EXTENSIONS)
    for slug in catalog.slugs():
        try:
            stored = catalog.stored_solutions(slug)
        except JudgeInputError:
            continue
        assert all(s.expected.final is not None and len(s.expected.final) == 1 for s in stored)


def test_a_package_with_only_c_submissions_is_checked(judge, tmp_path):
    """issue 21: 'no stored solutions to grade' named a solutions/ folder the package has not; C
    submissions are graded now (where gcc is installed), else the package's own folder is named."""
    from tcjudge.languages import C

    package = tmp_path / "packages" / "addtwo"
    shutil.copytree(PACKAGES / "addtwo", package)
    for entry in (package / "submissions").rglob("*"):
        if entry.is_file() and entry.suffix != ".c":
            entry.unlink()
    code, out, err = judge("--problems", package.parent, "check")
    if C.toolchain() is None:
        assert code == 2 and "addtwo/submissions: no stored solutions to grade" in err, err
    else:
        assert code == 0 and "addtwo/submissions/accepted/sum.c: AC (expected AC)" in out, out + err


def test_a_group_rules_score_is_checked(tmp_path, judge):
    """issue 21: a group rule's `score` was read but not checked."""
    package = tmp_path / "packages" / "trisum"
    shutil.copytree(PACKAGES / "trisum", package)
    (package / "submissions" / "submissions.yaml").write_text(
        "partially_accepted/float_formula.py:\n  secret/group1:\n    score: 30\n  secret/group2:\n    score: [0, 10]\n"
        "accepted/formula.py:\n  secret/group2:\n    score: [0, 69]\n")
    code, out, _ = judge("--problems", package.parent, "check", "-j", "2")
    assert code == 1
    # by hand: formula.py scores 70 on group2 (tests/test_kattis_scoring.py), float_formula.py 30 and 0
    assert ("formula.py: AC 100 (expected AC + by test group): group secret/group2 scored 70, but "
            "submissions.yaml:6 (accepted/formula.py) asks a score in [0, 69]") in out, out
    assert "ok       " in out and "float_formula.py: AC 30" in out and "2 of 3 solutions" in out


def test_score_rules_name_groups_that_exist_in_a_scored_problem():
    rule = Requirement(frozenset({AC}), frozenset({AC}), "submissions.yaml:2 (a.py)", "secret/*", score=(10, 20))
    expectation = Expectation("AC", None, (rule,))
    assert expectation.score_mismatch({"secret/a": 10, "secret/b": 20, "secret": 30}) is None  # secret is not secret/*
    assert "group secret/b scored 25, but submissions.yaml:2 (a.py) asks a score in [10, 20]" in \
        expectation.score_mismatch({"secret/a": 10, "secret/b": 25})
    assert "no test group is secret/*" in expectation.score_mismatch({"secret": 30})
    assert "the problem is not scored" in expectation.score_mismatch(None)
    assert Expectation("AC", None, (Requirement(frozenset({AC}), frozenset({AC}), "x", "secret"),)).score_mismatch(
        None) is None  # no score asked
