"""`testlib`: a checker in the Codeforces / Polygon convention (testlib.h), of the problem's own.

    checker input_file output_file answer_file

(the program's output second, the judge's answer third, standard input unused). Its exit status is
the verdict, its standard error the message (testlib writes "ok ...", "wrong answer ...", "wrong
output format ...", "points ...", "FAIL ..."):

    0 accepted · 1 wrong answer · 2 presentation error · 4 extra output ("dirt") · 8 unexpected end of
    the output: WA with the checker's message (the judge has no presentation-error verdict)
    7 points (a partial score): WA too (a pass-fail judge accepts full answers only)
    3 the checker's own failure ("FAIL"), any other status, a signal, more than 60 s: IE

A stdin problem names it with `checker: testlib` (its program: checker.cpp, checker.py or a checker/
folder), a Kattis package with the same key in problem.yaml (its program: the package's output
validator folder). The program is prepared as an output validator is (one Python file, C++ sources
compiled once with g++ beside the setter's own testlib.h, an executable, a folder with `build`/`run`)
and run as one: the setter's code, trusted, outside the sandbox, with the validator's limits.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from . import OUTPUT, Comparison
from .output_validator import OutputValidator, ValidatorFailed, check, printable

APPLIES_TO = OUTPUT
NAME = "testlib"  # problem.yaml's `checker:` value
SOURCES = ("checker.cpp", "checker.cc", "checker.cxx", "checker.py", "checker")  # in a stdin problem's folder

OK = 0
REJECTED = {1: "wrong answer", 2: "presentation error", 4: "extra output", 7: "partial points",
            8: "unexpected end of the output"}  # exit status: what it means, when the checker says nothing


class TestlibChecker:
    """A testlib checker program (prepared and run as an output validator is: OutputValidator.command, .run)."""

    def __init__(self, path: Path, **limits):
        self.program = OutputValidator(path, [], role="testlib checker", **limits)

    def describe(self) -> str:
        return self.program.describe()

    def judge(self, given: bytes, answer: bytes, output: bytes) -> Comparison:
        """The checker's verdict on `output`; ValidatorFailed when it gives none."""
        command = self.program.command()
        with tempfile.TemporaryDirectory(prefix="judge-testlib-") as scratch:
            folder = Path(scratch)
            for name, data in (("input", given), ("output", output), ("answer", answer)):
                (folder / name).write_bytes(data)
            returncode, _, stderr = self.program.run(
                [*command, str(folder / "input"), str(folder / "output"), str(folder / "answer")], folder,
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        message = printable(" ".join(stderr[:4096].decode("utf-8", "replace").split()))
        if returncode == OK:
            return Comparison(True)
        if returncode in REJECTED:
            return Comparison(False, message or f"{REJECTED[returncode]} (the checker's exit status {returncode})")
        status = f"status {returncode}" if returncode >= 0 else f"signal {-returncode}"
        raise ValidatorFailed(f"{self.describe()} failed ({status})" + (f": {message}" if message else ""))


def find_program(folder: Path) -> Path | None:
    """The testlib checker of a stdin problem: the one of SOURCES in its folder (None: none or several)."""
    found = [folder / name for name in SOURCES if (folder / name).exists()]
    return found[0] if len(found) == 1 else None


__all__ = ["APPLIES_TO", "TestlibChecker", "check", "find_program"]  # check: the output validator's (judge(), a failure IE)
