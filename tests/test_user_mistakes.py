"""A user's mistakes on the command line get a one-line message, never raw terminal control bytes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from . import budget

JUDGE = Path(__file__).resolve().parents[1] / "judge.py"


def test_missing_solution_with_escape_sequence_in_name_is_printed_escaped(tmp_path):
    name = "x\x1b[31mred.py"
    run = budget.run([sys.executable, str(JUDGE), "grade", name], cwd=tmp_path,
                         capture_output=True, text=True, cpu=60)
    assert run.returncode == 2
    assert "no such file" in run.stderr
    assert "\x1b" not in run.stderr and "Traceback" not in run.stderr


def test_missing_solution_with_line_break_in_name_stays_one_line(tmp_path):
    name = "x\x1b[31mred\nl.py"
    run = budget.run([sys.executable, str(JUDGE), "grade", name], cwd=tmp_path,
                         capture_output=True, text=True, cpu=60)
    assert run.returncode == 2
    assert "\x1b" not in run.stderr and run.stderr.count("\n") == 1, run.stderr


def judge_in(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return budget.run([sys.executable, str(JUDGE), *args], cwd=folder, capture_output=True, text=True, cpu=120)


def test_a_problem_named_by_its_folder_path_is_that_problem(tmp_path):
    """`check problems/adder/`, as a shell completes it, is `check adder`."""
    import shutil

    from .conftest import FIXTURE_PROBLEMS

    shutil.copytree(FIXTURE_PROBLEMS / "adder", tmp_path / "problems" / "adder")
    by_path = judge_in(tmp_path, "statement", "problems/adder/")
    assert by_path.returncode == 0, by_path.stderr
    assert by_path.stdout == judge_in(tmp_path, "statement", "adder").stdout


def test_a_problem_folder_outside_the_problems_folder_says_which_problems_folder_holds_it(tmp_path):
    import shutil

    from .conftest import FIXTURE_PROBLEMS

    shutil.copytree(FIXTURE_PROBLEMS / "adder", tmp_path / "elsewhere" / "adder")
    (tmp_path / "problems").mkdir()
    run = judge_in(tmp_path, "check", "elsewhere/adder")
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "not in the problems folder" in run.stderr and "--problems" in run.stderr and "elsewhere adder" in run.stderr


def test_problems_given_a_file_says_it_is_not_a_folder(tmp_path):
    (tmp_path / "notes.txt").write_text("x")
    run = judge_in(tmp_path, "--problems", "notes.txt", "check")
    assert run.returncode == 2 and "not a folder" in run.stderr, run.stderr


def test_check_and_report_of_every_problem_leave_out_one_that_does_not_load_and_grade_the_others(tmp_path):
    """A folder of packages with one broken (BAPCtools' divsort ships no data: its generators make it)
    stopped `check` at that problem's error before anything was graded. Now it is said, as an input
    error, and left out; the others are graded; the exit status is still 2."""
    import json
    import shutil

    from .conftest import TESTDATA

    problems = tmp_path / "problems"
    shutil.copytree(TESTDATA / "kattis_layouts" / "partialscore", problems / "partialscore")
    shutil.copytree(TESTDATA / "kattis_layouts" / "partialscore", problems / "nodata")
    shutil.rmtree(problems / "nodata" / "data")
    for command in ("check", "report"):
        run = judge_in(tmp_path, command, "--json", f"{command}.json")
        assert run.returncode == 2 and "Traceback" not in run.stderr, run.stdout + run.stderr
        assert "nodata/data: the package has no tests" in run.stderr and "left out" in run.stderr
        assert "partially_accepted/small_only.py" in run.stdout, run.stdout
        assert "1 problem left out, not loading (nodata)" in run.stdout
        written = json.loads((tmp_path / f"{command}.json").read_text())
        assert [s["problem"] for s in written["solutions"]] == ["partialscore"] * 2
        assert [p["problem"] for p in written["problems_left_out"]] == ["nodata"]
    named = judge_in(tmp_path, "check", "nodata")  # named alone: left out, then nothing is left to check
    assert named.returncode == 2 and "no tests" in named.stderr and "Checking" not in named.stdout
    shutil.rmtree(problems / "partialscore")
    alone = judge_in(tmp_path, "check")
    assert alone.returncode == 2 and "no problem here loads (1 left out" in alone.stderr, alone.stderr
