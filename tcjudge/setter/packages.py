"""`judge validate` of a Kattis/ICPC package, read as it is: every fault at once, as verifyproblem
reports them. What the loader finds (a bad limit, a refused validator, every missing .ans) comes
with every problem.yaml key the package's format version does not define (the format: "Any unknown
keys should be treated as an error"; each with the key it is likely a typo of), every input under
data/ that an input validator rejects (one without its .ans too), and, where the package loads, its
.interaction samples replayed. Its submissions, accepted ones included, are graded by the command
afterwards, as `check` grades them (commands/validate.py: the run owner, with the computed time
limit and progress on stderr).
"""

from __future__ import annotations

from pathlib import Path

from ..errors import JudgeInputError
from ..problems.constants import read_constants
from ..problems.format import Findings, Problem
from ..problems.kattis import unknown_keys
from ..problems.yamlio import load_mapping
from .input_validators import check_inputs
from .samples import check_interactions


def validate_package(folder: Path, problem: Problem | None, findings: Findings, progress) -> Findings:
    """The package's faults past what the loader found (`findings`, `problem` None when it does not
    load), each said once."""
    loads = problem is not None and not findings.errors
    try:
        spec, lines = load_mapping(folder / "problem.yaml")
    except JudgeInputError:  # (the loader said so)
        spec, lines = {}, {}
    findings.errors.extend(unknown_keys(spec, lines, folder / "problem.yaml"))
    constants, _ = read_constants(spec)  # (a bad one is the loader's error: none are replaced then)
    check_inputs(folder, constants, findings, progress)
    if loads:
        check_interactions(problem, findings)
    findings.errors = list({(e.message, str(e.path), e.line): e for e in findings.errors}.values())  # (a
    # testdata.yaml the loader could not read is said again by each input it holds flags for)
    return findings
