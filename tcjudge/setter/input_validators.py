"""A package's input validators, run by `judge validate` on every test input, as the Kattis format says.

Where they are: input_validators/ (legacy, one or more: each folder, or each file with the headers and
helper modules beside it, programs.slot_programs) or input_validator/ (2023-07), each a program
prepared as an output validator is (one Python file, C++ sources, an executable, a folder
with `run`, or with `build` then `run`), or a checktestdata script (`*.ctd`), run with the
`checktestdata` tool where it is installed (one warning line where it is not). A validator reads one
input on its standard input, with its flags (`input_validator_flags`, or `input_validator_args`, in
the testdata.yaml nearest the input) as arguments, and exits 42 when the input is valid, 43 when it
is not; anything else is the validator's own failure. Every input that fails is named with its file.

The problem's own code: trusted, but run as an output validator is (its CPU time, memory, a wall-clock
bound; an unlimited stack), so a bug in it cannot hang the judge.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from ..errors import JudgeInputError
from ..problems.checkers.output_validator import OutputValidator, ValidatorFailed
from ..problems.format import Findings
from ..problems.programs import slot_programs
from ..problems.yamlio import load_mapping

VALID, INVALID = 42, 43
MESSAGE = 200  # characters of a validator's complaint kept


def check_inputs(folder: Path, constants: dict[str, str], findings: Findings, progress) -> int:
    """Run every input validator of the package on every input under data/sample and data/secret (one
    without its .ans too: validate names every fault at once), `progress` told of each (a
    validate.Silent); returns how many validators there were."""
    validators = _validators(folder)
    inputs = [given for part in ("sample", "secret")
              for given in sorted((folder / "data" / part).rglob("*.in"), key=lambda p: p.parts)]
    for validator in validators:
        program = OutputValidator(validator, [], role="input validator")
        program.constants = constants
        command = _command(validator, program, findings)  # (`program` keeps its build alive meanwhile)
        if command is None:
            continue
        progress.phase(f"input validator {validator.name} on every input", len(inputs))
        for given in inputs:
            flags = _flags(given, folder, findings)
            if flags is not None:
                _run(program, command + flags, given, findings)
            progress.advance()
    return len(validators)


def _validators(folder: Path) -> list[Path]:
    """Every input validator: the programs of input_validators/ (input_format_validators/, its older
    name), each a file with its helpers or a folder, and 2023-07's input_validator/, one program."""
    return [*slot_programs(folder / "input_format_validators"), *slot_programs(folder / "input_validators"),
            *slot_programs(folder / "input_validator", one=True)]


def _command(validator: Path, program: OutputValidator, findings: Findings) -> list[str] | None:
    scripts = [validator] if validator.suffix == ".ctd" else sorted(validator.glob("*.ctd")) if validator.is_dir() else []
    if validator.suffix == ".viva" or (validator.is_dir() and list(validator.glob("*.viva")) and not scripts):
        findings.warn("input validator skipped: a VIVA script, which the judge does not run", validator)
        return None
    if scripts:
        tool = shutil.which("checktestdata")
        if tool is None:
            findings.warn("input validator skipped: checktestdata is not installed (it runs .ctd scripts)", validator)
            return None
        return [tool, str(scripts[0])]
    try:
        return program.command()
    except ValidatorFailed as err:
        findings.error(str(err), validator)
        return None


def _flags(given: Path, root: Path, findings: Findings) -> list[str] | None:
    """The flags of the testdata.yaml nearest the input (its folder, then each folder up to data/)."""
    folder = given.parent
    while root in folder.parents:
        settings = folder / "testdata.yaml"
        if settings.is_file():
            try:
                values, _ = load_mapping(settings)
            except JudgeInputError as err:
                findings.errors.append(err)
                return None
            value = values.get("input_validator_flags", values.get("input_validator_args"))
            if value is not None:
                if isinstance(value, str):
                    return value.split()
                if isinstance(value, list):
                    return [str(word) for word in value]
                findings.error("input_validator_flags: expected text or a list of words", settings)
                return None
        folder = folder.parent
    return []


def _run(program: OutputValidator, command: list[str], given: Path, findings: Findings) -> None:
    """One input on the validator's standard input, under the limits of the package's programs."""
    name = program.path.name
    try:
        with open(given, "rb") as handle:
            status, out, err = program.run(command, given.parent, stdin=handle)
    except ValidatorFailed as failure:
        findings.error(f"{failure} on it", given)
        return
    except OSError as err:
        findings.error(f"input validator {name} could not run: {err.strerror}", given)
        return
    if status == VALID:
        return
    said = " ".join((out + err).decode("utf-8", "replace").split())
    said = "".join(ch if ch.isprintable() else "?" for ch in said)[:MESSAGE]
    if status == INVALID:
        findings.error(f"rejected by input validator {name}" + (f": {said}" if said else ""), given)
    else:
        findings.error(f"input validator {name} exited with status {status}, not {VALID} or {INVALID}"
                       + (f": {said}" if said else ""), given)
