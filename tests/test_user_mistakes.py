"""A user's mistakes on the command line get a one-line message, never raw terminal control bytes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

JUDGE = Path(__file__).resolve().parents[1] / "judge.py"


def test_missing_solution_with_escape_sequence_in_name_is_printed_escaped(tmp_path):
    name = "x\x1b[31mred.py"
    run = subprocess.run([sys.executable, str(JUDGE), "grade", name], cwd=tmp_path,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "no such file" in run.stderr
    assert "\x1b" not in run.stderr and "Traceback" not in run.stderr


def test_missing_solution_with_line_break_in_name_stays_one_line(tmp_path):
    name = "x\x1b[31mred\nl.py"
    run = subprocess.run([sys.executable, str(JUDGE), "grade", name], cwd=tmp_path,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "\x1b" not in run.stderr and run.stderr.count("\n") == 1, run.stderr


def judge_in(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(JUDGE), *args], cwd=folder, capture_output=True, text=True, timeout=120)


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
