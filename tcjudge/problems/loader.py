"""One loader for every kind of problem: it reads problem.yaml and hands the folder to its kind.

`inspect_problem` collects every fault at once (for `judge.py validate`); `load_problem` raises the
first one (for grading, where one clear line is what a user needs).
"""

from __future__ import annotations

from pathlib import Path

from ..errors import JudgeInputError
from ..formats import PROBLEM_FORMAT
from . import kattis
from .format import Findings, Problem
from .method import inspect_method_problem
from .stdio import inspect_stdin_problem
from .yamlio import load_mapping


def load_problem(folder: Path) -> Problem:
    """Load and validate a problem folder; raises JudgeInputError naming the file and line of the first fault."""
    problem, findings = inspect_problem(folder)
    if findings.errors:
        raise findings.errors[0]
    return problem


def inspect_problem(folder: Path) -> tuple[Problem | None, Findings]:
    """Load a problem folder, collecting every error and warning; the problem is None when it cannot
    be built at all (no usable problem.yaml)."""
    folder = Path(folder)
    findings = Findings()
    spec_path = folder / "problem.yaml"
    if not spec_path.is_file():
        findings.error("no problem.yaml here: not a problem folder", folder)
        return None, findings
    try:
        spec, lines = load_mapping(spec_path)
    except JudgeInputError as err:
        findings.errors.append(err)
        return None, findings
    if kattis.is_package(folder):
        return kattis.inspect_package(folder, spec, findings)
    if spec.get("format_version", PROBLEM_FORMAT) != PROBLEM_FORMAT:
        findings.error(f"format_version: this judge reads problem format {PROBLEM_FORMAT}, not "
                       f"{spec['format_version']!r} (a newer judge may)", spec_path, lines.get("format_version"))
        return None, findings
    if spec.get("type") == "stdin":
        return inspect_stdin_problem(folder, spec, lines, findings)
    return inspect_method_problem(folder, spec, lines, findings)
