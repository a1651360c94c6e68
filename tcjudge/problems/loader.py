"""One loader for every kind of problem: it reads problem.yaml, picks the folder's kind once (the first
of KINDS that claims it) and lets that kind read the rest. Adding a kind is a module with a Kind
subclass (format.Kind says what it decides) and its instance in KINDS.

`inspect_problem` collects every fault at once (for `judge.py validate`); `load_problem` raises the
first one (for grading, where one clear line is what a user needs).
"""

from __future__ import annotations

from pathlib import Path

from ..errors import JudgeInputError
from ..formats import PROBLEM_FORMAT
from .format import Findings, Kind, Problem
from .interactive import INTERACTIVE
from .kattis import PACKAGE
from .method import METHOD
from .multipass import INTERACTIVE_MULTI_PASS, MULTI_PASS
from .stdio import STDIN
from .submitanswer import SUBMIT_ANSWER
from .yamlio import load_mapping

KINDS: tuple[Kind, ...] = (SUBMIT_ANSWER, INTERACTIVE_MULTI_PASS, MULTI_PASS, INTERACTIVE, PACKAGE, STDIN, METHOD)  # asked in this order; METHOD claims any folder left


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
    kind = _pick(folder, spec)
    if kind.own_format and spec.get("format_version", PROBLEM_FORMAT) != PROBLEM_FORMAT:
        findings.error(f"format_version: this judge reads problem format {PROBLEM_FORMAT}, not "
                       f"{spec['format_version']!r} (a newer judge may)", spec_path, lines.get("format_version"))
        return None, findings
    return kind.inspect(folder, spec, lines, findings)


def kind_of(folder: Path) -> Kind:
    """The kind of the problem in `folder`, as inspect_problem picks it (an unreadable problem.yaml
    says nothing: the folder's layout alone decides)."""
    try:
        spec, _ = load_mapping(Path(folder) / "problem.yaml")
    except JudgeInputError:
        spec = {}
    return _pick(Path(folder), spec)


def _pick(folder: Path, spec: dict) -> Kind:
    return next(kind for kind in KINDS if kind.claims(folder, spec))
