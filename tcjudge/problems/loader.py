"""One loader for every kind of problem: it reads problem.yaml, picks the folder's kind once (the first
of KINDS that claims it) and lets that kind read the rest. Adding a kind is a module with a Kind
subclass (format.Kind says what it decides) and its instance named in KINDS.

A kind's module is imported when the kind is asked, and a package kind (one that claims only what
layout.claims_package does) only for a folder laid out as a package: grading one of our own problems
imports none of the Kattis machinery (a sixth of `grade`'s start).

`inspect_problem` collects every fault at once (for `judge.py validate`); `load_problem` raises the
first one (for grading, where one clear line is what a user needs).
"""

from __future__ import annotations

import importlib
from pathlib import Path

from ..errors import JudgeInputError
from ..formats import PROBLEM_FORMAT
from .format import Findings, Kind, Problem
from .layout import claims_package
from .yamlio import load_mapping, repeated_keys

# (module, instance, is a package kind), asked in this order; METHOD claims any folder left
KINDS: tuple[tuple[str, str, bool], ...] = (
    ("submitanswer", "SUBMIT_ANSWER", True), ("multipass", "INTERACTIVE_MULTI_PASS", True),
    ("multipass", "MULTI_PASS", True), ("interactive", "INTERACTIVE", True), ("kattis", "PACKAGE", True),
    ("stdio", "STDIN", False), ("method", "METHOD", False))


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
    for key, first, second in repeated_keys(spec_path):  # (a package as problemtools reads it: the second wins)
        if kind.own_format:
            findings.error(f"'{key}' is given twice (first on line {first}): say it once", spec_path, second)
        else:
            findings.warn(f"'{key}' is given twice (first on line {first}): the second is used, as problemtools "
                          "reads it", spec_path, second)
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
    package = claims_package(folder, spec)
    return next(kind for kind in (_kind(module, name) for module, name, of_packages in KINDS
                                  if package or not of_packages) if kind.claims(folder, spec))


def _kind(module: str, name: str) -> Kind:
    return getattr(importlib.import_module(f"{__package__}.{module}"), name)
