"""A package's time limit when it gives none: computed from its submissions as the format says
(issue 21), by check and grade, and by calibrate for any package."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from tcjudge.engine import results
from tcjudge.problems.loader import load_problem
from tcjudge.problems.timing import UNSET, Timing
from tcjudge.runs import _at_limit
from tcjudge.verdicts import Verdict

from .conftest import TESTDATA

PACKAGES = TESTDATA / "kattis"


@pytest.mark.parametrize("limits, legacy, rule", [
    ({}, True, Timing(5.0, 2.0, 1.0, "time_multiplier")),  # the legacy defaults
    ({"time_multiplier": 4}, True, Timing(4.0, 2.0, 1.0, "time_multiplier")),
    ({}, False, Timing(2.0, 1.5, 1.0, "time_multipliers")),  # 2023-07 and 2025-09 defaults
    ({"time_multipliers": {"ac_to_time_limit": 3}, "time_resolution": 0.25}, False,
     Timing(3.0, 1.5, 0.25, "time_multipliers")),
])
def test_the_rule_is_read_as_each_format_says(limits, legacy, rule):
    assert Timing.read(limits, legacy) == (rule, "")


@pytest.mark.parametrize("slowest, limit", [(0.0, 0.5), (0.2, 0.5), (0.25, 0.5), (0.26, 1.0), (1.1, 2.5)])
def test_the_limit_is_the_smallest_multiple_of_the_resolution(slowest, limit):
    assert Timing(2.0, 1.5, 0.5, "time_multipliers").limit(slowest) == limit


def test_a_bad_multiplier_is_refused():
    rule, why = Timing.read({"time_multipliers": {"ac_to_time_limit": 0.5}}, False)
    assert rule is None and "at least 1" in why


def test_a_package_without_a_limit_says_so_until_computed():
    problem = load_problem(PACKAGES / "digitsum")
    assert problem.time_limit_from.startswith(UNSET) and problem.timing == Timing(2.0, 1.5, 0.5, "time_multipliers")
    assert load_problem(PACKAGES / "addtwo").time_limit_from == ".timelimit"
    assert load_problem(PACKAGES / "splitsum").time_limit_from == "problem.yaml"


def test_grade_computes_the_limit_from_the_submissions_and_says_so(judge, tmp_path):
    solution = tmp_path / "digits.py"
    solution.write_text("print(sum(map(int, input().strip())))\n")
    code, out, err = judge("--problems", PACKAGES, "grade", solution, "--problem", "digitsum", "-j", "2")
    assert code == 0, out + err
    assert "Timing 4 submissions of digitsum for its time limit (none given)" in out
    # the slowest test of accepted/, wrong_answer/, mixed/modulo.c (its tag permits no TLE) and mixed/small_only.py
    # on sample and secret/small (its rules there permit no TLE), x2, in halves
    assert re.search(r"4 tests, (\d+(\.5)?) s \(computed from the submissions: slowest \d+ ms \(.*digitsum/submissions/"
                     r"(accepted|wrong_answer|mixed)/.*\) x2, rounded up to a multiple of 0\.5 s \(time_multipliers\)\)",
                     out), out


def test_calibrate_and_write_a_package_limit(judge, tmp_path):
    package = tmp_path / "packages" / "parity"
    shutil.copytree(PACKAGES / "parity", package)
    code, out, err = judge("--problems", package.parent, "calibrate", "parity", "-j", "2", "--write")
    assert code == 0, out + err
    assert re.search(r"time limit: +1 s \(x4, rounded up to a multiple of 1 s, as the package's limits say "
                     r"\(time_multiplier\)\); the package had 1 s \(the default", out), out
    assert "wrote time_limit: 1 to" in out and (package / ".timelimit").read_text() == "1\n"
    assert load_problem(package).time_limit_from == ".timelimit"


def test_the_tle_submissions_must_time_out_at_the_margin(judge, tmp_path):
    """issue 21: a computed limit was not checked against the submissions that must time out
    (time_limit_to_tle). mixed/small_only.py wastes 10^18 steps on secret/large: it does; a copy of
    the accepted submission filed under time_limit_exceeded/ does not, and a warning names it."""
    package = tmp_path / "packages" / "digitsum"
    shutil.copytree(PACKAGES / "digitsum", package)
    (package / "submissions" / "time_limit_exceeded").mkdir()
    shutil.copy(package / "submissions/accepted/digits.py", package / "submissions/time_limit_exceeded/fast.py")
    code, out, err = judge("--problems", package.parent, "grade", package / "submissions/accepted/digits.py",
                           "--problem", "digitsum", "-j", "2")
    assert code == 0, out + err
    assert "Timing 2 submissions of digitsum that must time out at 1.5x its limit" in out
    warnings = [line for line in err.splitlines() if "must time out" in line]
    assert len(warnings) == 1 and "time_limit_exceeded/fast.py must time out, but gets AC at " in warnings[0], err
    assert re.search(r"at (\d+(\.\d+)?) s, 1\.5x the computed (\d+(\.5)?) s limit \(time_multipliers\.time_limit_to_tle\)",
                     warnings[0]), err


SLOW_ON_LARGE = """import time
n = int(input())
while n == 0:  # secret/small/01: never ends
    pass
while n == 999999999 and time.process_time() < 0.6:  # secret/large/01: over the 0.5 s limit, under 0.75 s
    pass
print(sum(int(digit) for digit in str(n)))
"""


def test_one_pass_a_submission_that_must_time_out_stops_at_its_first_failure_at_the_limit(judge, tmp_path):
    """issue 48: a submission that must time out was graded to the margin (1.5x the limit) on every test
    until one reached it: on excursion 48 s of CPU past its first test over the 7 s limit. Now its run
    stops there, at its first failure as `check` reports it (secret/large/01, 0.6 s against 0.5 s): the
    test that would reach the margin (secret/small/01) is not run, and a note says so."""
    package = tmp_path / "packages" / "digitsum"
    shutil.copytree(PACKAGES / "digitsum", package)
    (package / "submissions" / "time_limit_exceeded").mkdir()
    (package / "submissions" / "time_limit_exceeded" / "slow_on_large.py").write_text(SLOW_ON_LARGE)
    code, out, err = judge("--problems", package.parent, "check", "digitsum", "--json", tmp_path / "check.json")
    assert code == 0, out + err
    assert re.search(r"time_limit_exceeded/slow_on_large\.py times out at the computed 0\.5 s limit first on "
                     r"secret/large/01 \(\d+ ms of CPU\), under 0\.75 s", err), err  # (ms, cut: 1.96 s printed
    # as "(2.0 s), under 2 s" read as a contradiction: breaker 50b's U2)
    graded = {Path(s["solution"]).name: s for s in json.loads((tmp_path / "check.json").read_text())["solutions"]}
    tests = {t["name"]: t["verdict"] for t in graded["slow_on_large.py"]["tests"]}
    assert tests == {"sample/1": "AC", "secret/large/01": "TLE", "secret/small/01": None, "secret/small/02": None}
    with sqlite3.connect(tmp_path / "history.sqlite") as db:  # the run to the margin: nothing after its failure
        margin_run = db.execute(
            """SELECT t.name, t.verdict FROM tests t JOIN results r ON r.id = t.result_id
               WHERE r.solution LIKE '%slow_on_large.py' AND r.time_limit = 0.75 ORDER BY t.position""").fetchall()
    assert margin_run == [("sample/1", "AC"), ("secret/large/01", "AC"), ("secret/small/01", None),
                          ("secret/small/02", None)], margin_run
    code, again, err = judge("--problems", package.parent, "check", "digitsum")
    assert code == 0 and "Timing" not in again and "; kept from " in again, again + err  # the limit was kept


def test_report_grades_a_package_at_the_limit_check_computes(judge, tmp_path):
    """report graded a package that gives no time limit at the default (1 s), where check computes
    one (digitsum: 0.5 s), so their verdicts could differ; the pages now show check's limit (kept
    from check's computing it: issue 48)."""
    limits = {}
    for command in ("check", "report"):
        code, out, err = judge("--problems", PACKAGES, command, "digitsum", "--json", tmp_path / f"{command}.json",
                               *(["--out", tmp_path / "out"] if command == "report" else []))
        assert code == 0, out + err
        assert ("Timing 4 submissions of digitsum for its time limit" in out) == (command == "check"), out
        written = json.loads((tmp_path / f"{command}.json").read_text())
        limits[command] = {result["limits"]["time_s"] for result in written["solutions"]}
    assert len(limits["check"]) == 1 and limits["report"] == limits["check"]  # (0.5 s here, against the default 1 s)


def test_one_pass_the_limit_is_kept_and_a_second_check_times_nothing(judge, tmp_path):
    """issue 48: a second check with nothing changed timed every submission again. Now the limit is
    kept with what it was computed from, and used until that changes (here: a submission's content)."""
    package = tmp_path / "packages" / "digitsum"
    shutil.copytree(PACKAGES / "digitsum", package)
    code, first, err = judge("--problems", package.parent, "check", "digitsum")
    assert code == 0 and "Timing 4 submissions of digitsum for its time limit" in first, first + err
    code, second, err = judge("--problems", package.parent, "check", "digitsum")
    assert code == 0, second + err
    assert "Timing" not in second and "; kept from " in second, second
    assert all("(reused)" in line for line in second.splitlines() if line.startswith("  ok ")), second
    accepted = package / "submissions" / "accepted" / "digits.py"
    accepted.write_text(accepted.read_text() + "\n# changed\n")
    code, third, err = judge("--problems", package.parent, "check", "digitsum")
    assert code == 0 and "Timing 4 submissions" in third, third + err  # a submission changed: timed again


def _timed(*tests: tuple[str, Verdict | None, float, float]) -> results.GradeResult:
    problem = load_problem(PACKAGES / "digitsum")
    return results.GradeResult(problem, PACKAGES / "digitsum" / "x.py",
                       [results.TestResult(name, verdict, cpu_ms, wall_ms) for name, verdict, cpu_ms, wall_ms in tests])


def _at(limit: float, result: GradeResult):
    problem = load_problem(PACKAGES / "digitsum")
    problem.time_limit = limit
    return _at_limit(result, problem)


def test_one_pass_a_timing_result_is_the_grading_at_the_computed_limit():
    """issue 48: a run under the timing's cap (or the TLE margin) is the submission's grading at the
    limit where the figures decide it exactly: over the limit's CPU is TLE there (and the tests after it
    are not run), under it the verdict stands; a TLE under a smaller limit, or a test longer in wall
    time than the limit's idle limit (2 x limit + 1 s), decides nothing (graded again)."""
    AC, WA, TLE = Verdict.AC, Verdict.WA, Verdict.TLE
    same = _at(1.0, _timed(("a", AC, 400, 450), ("b", WA, 300, 320), ("c", None, 0, 0)))
    assert [(t.verdict, t.cpu_ms) for t in same.tests] == [(AC, 400), (WA, 300), (None, 0)]
    over = _at(1.0, _timed(("a", AC, 400, 450), ("b", AC, 1200, 1300), ("c", WA, 10, 20)))
    assert [t.verdict for t in over.tests] == [AC, TLE, None] and over.tests[1].cpu_ms == 1000
    assert "CPU time limit of 1 s exceeded" in over.tests[1].message
    assert _at(1.0, _timed(("a", TLE, 750, 800))) is None  # stopped at 0.75 s: it could pass at 1 s
    assert [t.verdict for t in _at(0.5, _timed(("a", TLE, 750, 800))).tests] == [TLE]
    assert _at(1.0, _timed(("a", AC, 100, 3100))) is None  # 3.1 s of wall time: the 3 s idle limit could stop it


def test_a_submission_that_gets_what_it_must_only_with_extra_time_stands_with_a_note(judge, tmp_path):
    """problemtools judges each submission at the limit and at its margin, and one that gets what it must
    only at the margin is 'OK with extra time' (breaker 50b: kth2019 assassins' wrong_answer/monte_carlo.cc,
    TLE at 1 s, WA at 2 s). Before: 'MISMATCH ...: TLE (expected WA)', exit 1."""
    package = tmp_path / "constsum"
    shutil.copytree(TESTDATA / "kattis_layouts" / "constsum", package)
    spec = package / "problem.yaml"
    spec.write_text(spec.read_text().replace("time_limit: 2", "time_limit: 1"))  # (2025-09: time_limit_to_tle 1.5)
    (package / "submissions" / "wrong_answer" / "slow_wrong.py").write_text(
        "import time\nwhile time.process_time() < 1.15:\n    pass\nprint(-1)\n")  # 1.15 s of CPU, whatever the load
    code, out, err = judge("--problems", tmp_path, "check", "constsum", "--json", tmp_path / "r.json")
    assert code == 0, out + err
    assert "SLOW     " in out and "slow_wrong.py: TLE (expected WA)" in out
    assert "slow_wrong.py gets TLE at the 1 s limit and WA at 1.5 s" in err and "with extra time" in err
    solutions = {s["solution"].rsplit("/", 1)[-1]: s for s in json.loads((tmp_path / "r.json").read_text())["solutions"]}
    assert solutions["slow_wrong.py"]["verdict"] == "WA" and solutions["slow_wrong.py"]["matched"]
    assert "slow_wrong.py: WA with extra time" in out
    # the history says what check showed (breaker 50b: its check run kept the TLE), and the next check reuses it
    history = ("--problems", tmp_path, "--history", tmp_path / "h.sqlite")
    code, out, err = judge(*history, "check", "constsum")
    assert code == 0, out + err
    code, out, err = judge(*history, "history", package / "submissions" / "wrong_answer" / "slow_wrong.py")
    assert code == 0 and re.search(r"\n\d+ +\S+ \S+ +check +WA +WA ", out), out + err
    code, out, err = judge(*history, "check", "constsum")
    assert code == 0 and re.search(r"ok +\S*slow_wrong.py: WA \(expected WA\) \(reused\)", out), out + err


def test_check_grades_the_submissions_that_bound_nothing_beside_those_that_must_time_out(judge, tmp_path):
    """One grading after the limit (issue 48): brute_force/ (use_for_time_limit: false) and rejected/ bound
    the limit from neither side, so they are graded with the submissions that must time out, at the
    computed limit, and check reuses those results. Before: a third grading of them after both timings."""
    code, out, err = judge("--problems", PACKAGES, "--history", tmp_path / "h.sqlite", "check", "digitsum", "-j", "2")
    assert code == 0, out + err
    assert "that must time out at 1.5x its limit, grading 2 others beside them" in out
    for name in ("brute_force/walks_up.py", "rejected/long_numbers_plus_one.py"):
        assert re.search(rf"ok +\S*{name}: \S+ \(expected [^)]*\) \(reused\)", out), out
