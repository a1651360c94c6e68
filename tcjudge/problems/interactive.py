"""Interactive Kattis packages: the program talks with the problem's interactor instead of reading a file.

problem.yaml says `validation: custom interactive` (legacy) or `type: interactive` (2023-07). The
package's output validator is the interactor, run as Kattis runs one:

    interactor input_file judge_answer_file feedback_dir [flags...]  < program's output  > program's input

It exits 42 to accept and 43 to reject (feedback_dir/judgemessage.txt says why); the engine starts it
beside the program (engine/interaction.py) and judges by the format's rules
(engine/judging.judge_interaction). Everything else (limits, data/, submissions/) is read as for a
pass-fail package.
"""

from __future__ import annotations

from pathlib import Path

from .checkers.output_validator import OutputValidator
from .format import Findings, Problem
from .kattis import PACKAGE, PackageKind, inspect_package
from .layout import package_type


class InteractiveKind(PackageKind):
    name = "kattis interactive"
    interactive = True

    def claims(self, folder: Path, spec: dict) -> bool:
        return PACKAGE.claims(folder, spec) and "interactive" in package_type(spec)

    def inspect(self, folder: Path, spec: dict, lines: dict[str, int],
                findings: Findings) -> tuple[Problem | None, Findings]:
        problem, findings = inspect_package(folder, spec, findings, self)
        if problem is None:
            return None, findings
        validator = getattr(problem.check, "settings", None)
        if not isinstance(validator, OutputValidator):
            findings.error("an interactive problem needs its interactor: one output validator under "
                           "output_validator(s)/", folder)
            return None, findings
        problem.interactor = validator
        return problem, findings

    def signature(self, problem: Problem) -> str:
        return "standard input and output, in dialogue with the interactor"


INTERACTIVE = InteractiveKind()
