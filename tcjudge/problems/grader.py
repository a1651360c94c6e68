"""A legacy Kattis package's custom grader (`grading: custom` in a testdata.yaml, its program in
graders/): the setter's program that aggregates a test group's results, as problemtools runs one.

    grader [grader_flags...] < one line "VERDICT SCORE" per sub-result (a test or a subgroup, in order)
    stdout: one line "VERDICT SCORE", the group's

Verdicts on both sides are the format's: AC, WA, TLE, RTE (our RE and MLE), JE (a judge error: our
IE). The program is prepared and run as an output validator is (OutputValidator: one Python file,
C++ sources, an executable, a folder with `build`/`run`; trusted, outside the sandbox, with the
validator's limits: validation_time, validation_memory). A grader that cannot start, exits with a status other than 0, dies of a
signal, prints anything but one verdict and one number, or answers JE is the problem's fault:
GraderFailed, naming the grader, which makes the group (and the solution) IE.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

from ..verdicts import Verdict
from .checkers.output_validator import OutputValidator, ValidatorFailed, printable
from .programs import slot_programs
from .scoring import GraderFailed

TO_GRADER = {Verdict.AC: "AC", Verdict.WA: "WA", Verdict.TLE: "TLE", Verdict.RE: "RTE", Verdict.MLE: "RTE",
             Verdict.IE: "JE"}
FROM_GRADER = {"AC": Verdict.AC, "WA": Verdict.WA, "TLE": Verdict.TLE, "RTE": Verdict.RE}
OUTPUT_READ = 4096  # bytes of the grader's answer read (one short line is all it may say)


class Grader:
    """One grader program with one group's grader_flags; called with the group's sub-results."""

    def __init__(self, path: Path, flags: tuple[str, ...] = ()):
        self.program = OutputValidator(path, list(flags), role="grader")

    def with_flags(self, flags: tuple[str, ...]) -> Grader:
        """The same program (prepared once) with another group's grader_flags."""
        other = Grader.__new__(Grader)
        other.program = self.program.with_flags(list(flags))
        return other

    def describe(self) -> str:
        return self.program.describe()

    def __call__(self, results: list[tuple[Verdict, float]]) -> tuple[Verdict, float]:
        """The group's (verdict, score) as the grader aggregates `results`; GraderFailed when it gives none."""
        lines = "".join(f"{TO_GRADER.get(verdict, 'JE')} {score!r}\n" for verdict, score in results)
        try:
            with tempfile.TemporaryDirectory(prefix="judge-grader-") as scratch:
                returncode, stdout, stderr = self.program.run([*self.program.command(), *self.program.flags],
                                                              Path(scratch), given=lines.encode())
        except ValidatorFailed as err:
            raise GraderFailed(str(err)) from None
        if returncode != 0:
            status = f"status {returncode}" if returncode > 0 else f"signal {-returncode}"
            last = stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
            raise GraderFailed(f"{self.describe()} failed ({status}), expected 0"
                               + (f": {printable(last[0])}" if last else ""))
        text = stdout[:OUTPUT_READ].decode("utf-8", "replace")
        words = text.split()
        score = _number(words[1]) if len(words) == 2 else None
        if score is None or words[0] not in (*FROM_GRADER, "JE"):
            raise GraderFailed(f"{self.describe()} printed {printable(text.strip())!r}, not one line "
                               f"'VERDICT SCORE' (VERDICT: AC, WA, TLE, RTE or JE)")
        if words[0] == "JE":
            raise GraderFailed(f"{self.describe()} answered JE (a judge error)")
        return FROM_GRADER[words[0]], score


def _number(word: str) -> float | None:
    try:
        value = float(word)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def find_grader(package: Path) -> tuple[Path | None, str]:
    """The package's one grader program under graders/ (a file or a folder), or None and why not."""
    found = slot_programs(package / "graders")
    if len(found) != 1:
        return None, f"grading: custom needs exactly one grader program under graders/, found {len(found)}"
    return found[0], ""

