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
