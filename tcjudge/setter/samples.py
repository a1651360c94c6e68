"""`judge validate` on a package's `.interaction` samples (interactive and multi-pass problems): each
file reads as a dialogue (problems/interaction.py), and where the sample also has its `.in` and
`.ans`, the dialogue is replayed against the package's own validator: the program's side (`>`) is
given to it, and it must say the judge's side (`<`, compared token by token), accept, and ask for
exactly the passes shown. A statement whose example the judge would not play is caught here.
"""

from __future__ import annotations

from ..errors import JudgeInputError
from ..problems import interaction
from ..problems.checkers.output_validator import OutputValidator, Session, ValidatorFailed
from ..problems.format import Findings, Problem
from ..protocol import ACCEPTED


def check_interactions(problem: Problem, findings: Findings) -> int:
    """Check every data/sample/*.interaction of the package; how many there were."""
    files = sorted((problem.path / "data" / "sample").rglob("*.interaction"))
    for path in files:
        if not (problem.kind.interactive or problem.kind.multi_pass):
            findings.warn("an .interaction sample in a problem that is neither interactive nor multi-pass", path)
            continue
        try:
            passes = interaction.read(path, problem.kind.multi_pass)
        except JudgeInputError as err:
            findings.errors.append(err)
            continue
        given, answer = path.with_suffix(".in"), path.with_suffix(".ans")
        validator = getattr(problem.check, "settings", None)
        if given.is_file() and answer.is_file() and isinstance(validator, OutputValidator):
            try:
                with validator.session(answer.read_bytes()) as session:
                    fault = _replay(problem, session, given.read_bytes(), passes)
            except ValidatorFailed as err:
                fault = str(err)
            if fault:
                findings.error(f"the sample's dialogue is not what the validator plays: {fault}", path)
    return len(files)


def _replay(problem: Problem, session: Session, given: bytes, passes: list[interaction.Pass]) -> str | None:
    """Why the dialogue differs from the validator's (None when it agrees), pass by pass."""
    for number, shown in enumerate(passes, 1):
        where = f"pass {number}: " if len(passes) > 1 else ""
        if problem.kind.interactive:
            status, said = session.replay(given, shown.said(interaction.PROGRAM))
            if said.split() != shown.said(interaction.JUDGE).split():
                return f"{where}the validator wrote {_short(said)}, the sample shows {_short(shown.said(interaction.JUDGE))}"
        else:
            if given.split() != shown.said(interaction.JUDGE).split():
                return f"{where}the input is {_short(given)}, the sample shows {_short(shown.said(interaction.JUDGE))}"
            outcome = session.check(given, shown.said(interaction.PROGRAM))
            status = ACCEPTED if outcome.ok else outcome.message
        if status != ACCEPTED:
            return f"{where}the validator did not accept it ({status})"
        following = session.next_pass()
        if (following is None) != (number == len(passes)):
            return f"{where}the validator asked for {'another pass' if following is not None else 'no more passes'}, " \
                   f"the sample shows {len(passes)}"
        given = following
    return None


def _short(data: bytes) -> str:
    text = " ".join(data.decode("utf-8", "replace").split())
    return repr(text if len(text) <= 60 else text[:57] + "...")
