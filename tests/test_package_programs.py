"""A package's own programs (output validators, interactors, input validators, graders) run as
problemtools runs them (issue 46): an unlimited stack, every clock as outside the judge, a JVM
without an address-space limit; fixtures in testdata/kattis_layouts/ (see its README)."""

from __future__ import annotations

import shutil
import time

import pytest

from tcjudge.problems.checkers.output_validator import OutputValidator

from .conftest import TESTDATA

LAYOUTS = TESTDATA / "kattis_layouts"


def test_an_output_validator_that_recurses_through_100_mib_of_stack_judges(judge):
    """deepstack's validator descends 100000 levels of 1 KiB: IE 'exited with status -11' at the
    judge's 8 MiB before."""
    code, out, err = judge("--problems", LAYOUTS, "check", "deepstack")
    assert code == 0, out + err
    assert "2 of 2 solutions got their expected verdict" in out


def test_an_interactor_that_recurses_deep_judges(judge, tmp_path):
    """The same program as the interactor (it writes the input, then reads the program's answer),
    started by the zygote: its stack was the zygote's 8 MiB."""
    shutil.copytree(LAYOUTS / "deepstack", tmp_path / "problems" / "deepstack")
    spec = tmp_path / "problems" / "deepstack" / "problem.yaml"
    spec.write_text(spec.read_text().replace("validation: custom\n", "validation: custom interactive\n"))
    code, out, err = judge("--problems", tmp_path / "problems", "check", "deepstack")
    assert code == 0, out + err
    assert "2 of 2 solutions got their expected verdict" in out


def test_an_input_validator_that_recurses_deep_validates(judge):
    code, out, err = judge("--problems", LAYOUTS, "validate", "deepstack")
    assert code == 0, out + err
    assert "deepstack: ok" in out


@pytest.mark.skipif(shutil.which("javac") is None, reason="javac is not installed")
def test_a_java_validator_starts(tmp_path):
    """A JVM reserves more address space than validation_memory (1 GiB of class space alone): it
    exited 1 before its main under the limit, as problemtools knows (it sets none for Java)."""
    source = tmp_path / "check" / "Check.java"
    source.parent.mkdir()
    source.write_text("public class Check { public static void main(String[] a) { System.exit(42); } }\n")
    assert OutputValidator(source.parent, []).judge(b"1\n", b"1\n", b"1\n").ok


def test_a_programs_clocks_are_the_judges(tmp_path):
    """Its monotonic and wall clocks read as the judge's own do (no namespace, no offset)."""
    program = tmp_path / "clocks.py"
    program.write_text("import time\nprint(time.monotonic(), time.time())\n")
    validator = OutputValidator(program, [])
    command = validator.command()
    before = time.monotonic(), time.time()
    status, out, _ = validator.run(command, tmp_path, given=b"")
    after = time.monotonic(), time.time()
    monotonic, wall = map(float, out.split())
    assert status == 0
    assert before[0] <= monotonic <= after[0] and before[1] <= wall <= after[1]
