"""Multi-pass Kattis packages (2023-07 and later: `type: multi-pass`, alone or with `interactive`).

The submission runs once per pass. After each pass the output validator (or interactor) may accept
and write `nextpass.in` in its feedback folder: the submission then runs again with that file as its
input, up to `limits.validation_passes` passes (default 2). The engine's loop is engine/passes.py;
this module reads the package: its pass limit, and that it has the validator that writes nextpass.in.

A multi-pass package whose output validator is the default one has a single pass (the default
validator never asks for another): it is read as a pass-fail package, with a warning.
"""

from __future__ import annotations

from pathlib import Path

from .checkers.output_validator import OutputValidator
from .format import Findings, Problem
from .interactive import InteractiveKind
from .kattis import PACKAGE, PackageKind, inspect_package
from .layout import package_type

DEFAULT_PASSES = 2  # limits.validation_passes when the package gives none (the format's default)


def is_multi_pass(spec: dict) -> bool:
    words = package_type(spec).replace("multipass", "multi-pass")
    return "multi-pass" in words


class MultiPassKind(PackageKind):
    """A multi-pass package whose submission reads each pass's input on standard input."""

    name = "kattis multi-pass"
    multi_pass = True

    def claims(self, folder: Path, spec: dict) -> bool:
        return PACKAGE.claims(folder, spec) and is_multi_pass(spec) and "interactive" not in package_type(spec)

    def inspect(self, folder: Path, spec: dict, lines: dict[str, int],
                findings: Findings) -> tuple[Problem | None, Findings]:
        problem, findings = inspect_package(folder, spec, findings, self)
        if problem is None:
            return None, findings
        if not isinstance(getattr(problem.check, "settings", None), OutputValidator):
            findings.warn("a multi-pass problem with the default output validator has one pass (only an output "
                          "validator of the package's own writes nextpass.in): graded as pass-fail",
                          folder / "problem.yaml")
            problem.kind = PACKAGE
            return problem, findings
        return with_passes(problem, folder, spec, findings)

    def signature(self, problem: Problem) -> str:
        return f"standard input and output, up to {problem.passes} passes"


class InteractiveMultiPassKind(InteractiveKind):
    """A multi-pass package whose submission talks with the interactor in every pass."""

    name = "kattis interactive multi-pass"
    multi_pass = True

    def claims(self, folder: Path, spec: dict) -> bool:
        return super().claims(folder, spec) and is_multi_pass(spec)

    def inspect(self, folder: Path, spec: dict, lines: dict[str, int],
                findings: Findings) -> tuple[Problem | None, Findings]:
        problem, findings = super().inspect(folder, spec, lines, findings)
        if problem is None:
            return None, findings
        return with_passes(problem, folder, spec, findings)

    def signature(self, problem: Problem) -> str:
        return f"in dialogue with the interactor, up to {problem.passes} passes"


def with_passes(problem: Problem, folder: Path, spec: dict,
                findings: Findings) -> tuple[Problem | None, Findings]:
    """The problem with its pass limit from limits.validation_passes (an int of at least 2)."""
    passes = (spec.get("limits") or {}).get("validation_passes", DEFAULT_PASSES)
    if type(passes) is not int or passes < 2:
        findings.error(f"limits.validation_passes: expected a whole number of at least 2, got {passes!r}",
                       folder / "problem.yaml")
        return None, findings
    problem.passes = passes
    return problem, findings


MULTI_PASS = MultiPassKind()
INTERACTIVE_MULTI_PASS = InteractiveMultiPassKind()
