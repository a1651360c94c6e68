"""A package's own programs (output validators, interactors, input validators, graders) read and run
as problemtools reads and runs them (issue 46): an unlimited stack, every clock as outside the judge,
a JVM without an address-space limit; in every slot, the headers and helper modules beside a program
its own, several programs where the format allows several. Fixtures in testdata/kattis_layouts/
(see its README)."""

from __future__ import annotations

import shutil
import time

import pytest

from tcjudge.problems.checkers import testlib
from tcjudge.problems.checkers.output_validator import OutputValidator
from tcjudge.problems.programs import ProgramFailed, prepare, slot_programs

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


def test_a_cpp20_validator_is_built_as_problemtools_builds_it(tmp_path):
    """issue 46: a package's own C++ was compiled as gnu++17 (C as gnu11), where problemtools builds it
    with gnu++23 (gnu17): a validator using C++20's ranges was refused. Now the newest standard this g++
    knows, older ones only when the program does not compile under it; a program that compiles under
    none is refused with the newest one's error."""
    source = tmp_path / "check.cpp"
    source.write_text("#include <algorithm>\n#include <cstdlib>\n#include <vector>\n"
                      "int main() { std::vector<int> v{3, 1, 2}; std::ranges::sort(v);  // C++20\n"
                      "  return std::ssize(v) == 3 && v[0] == 1 ? 42 : 43; }\n")
    assert OutputValidator(source, []).judge(b"1\n", b"1\n", b"1\n").ok
    broken = tmp_path / "broken.cpp"
    broken.write_text("int main() { return undeclared_name; }\n")
    with pytest.raises(ProgramFailed, match=r"g\+\+ failed: .*undeclared_name"):
        prepare(broken, "output validator broken.cpp", [])


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


def test_a_checker_with_testlib_h_and_a_header_beside_it_is_one_program(judge):
    """testlibbeside's output_validators/ holds checker.cpp, testlib.h and sums.h: refused before, "a
    custom output validator needs exactly one under output_validator(s)/, found 3"."""
    code, out, err = judge("--problems", LAYOUTS, "check", "testlibbeside")
    assert code == 0, out + err
    assert "4 of 4 solutions got their expected verdict" in out


def test_a_python_validator_with_its_helper_module_is_one_program(judge):
    code, out, err = judge("--problems", LAYOUTS, "check", "pyhelper")
    assert code == 0, out + err
    assert "2 of 2 solutions got their expected verdict" in out


def test_several_input_validators_each_with_its_helpers_all_run(judge, tmp_path):
    """format.py (with rules.py), range.c (with range.h) and built/ (build, then run): each rejects
    the input only it catches, and rules.py and range.h are run as no validator."""
    problems = tmp_path / "problems"
    shutil.copytree(LAYOUTS / "testlibbeside", problems / "testlibbeside")
    shutil.rmtree(problems / "testlibbeside" / "output_validators")  # (the default one: input validators alone)
    spec = problems / "testlibbeside" / "problem.yaml"
    spec.write_text(spec.read_text().replace("validation: custom", "validation: default"))
    secret = problems / "testlibbeside" / "data" / "secret"
    for name, text, answer in (("3", "1 2\n\n", "3\n"), ("4", "5000 1\n", "5001\n"), ("5", "0 0\n", "0\n")):
        (secret / f"{name}.in").write_text(text)
        (secret / f"{name}.ans").write_text(answer)
    code, out, err = judge("--problems", problems, "validate", "testlibbeside")
    assert code != 0
    said = out + err
    assert "secret/3.in: error: rejected by input validator format.py: expected exactly one line" in said
    assert "secret/4.in: error: rejected by input validator range.c: a number outside [-1000, 1000]" in said
    assert "secret/5.in: error: rejected by input validator built: both numbers are zero" in said
    assert "rules.py" not in said and "range.h" not in said
    assert "testlibbeside: 3 errors" in said


@pytest.mark.parametrize("files, programs", [
    ({"checker.cpp": "int main() {}", "testlib.h": "", "README.md": ""}, ["checker.cpp"]),
    ({"validate.py": "import checks\n", "checks.py": "X = 1\n"}, ["validate.py"]),
    ({"a.py": "print(1)\n", "b.cpp": "int main() {}", "b.h": "", "common.py": ""}, ["a.py", "b.cpp", "common.py"]),
    ({"v.cpp": "#include \"lib.h\"\nint main() {}", "lib.cpp": "int f() { return 1; }", "lib.h": ""}, ["v.cpp"]),
    ({"Check.java": "class Check { public static void main(String[] a) {} }", "Util.java": "class Util {}"},
     ["Check.java"]),
    ({"build": "#!/bin/sh\n", "v.c": "int main(void) { return 42; }"}, ["."]),
    ({"two.ctd": "INT(1, 2)", "one.viva": ""}, ["one.viva", "two.ctd"]),
    ({"lib.cpp": "int f();", "other.cpp": "int g();"}, ["."]),
])
def test_a_slot_holds_programs_as_problemtools_reads_them(tmp_path, files, programs):
    slot = tmp_path / "slot"
    slot.mkdir()
    for name, text in files.items():
        (slot / name).write_text(text)
        if name == "build":
            (slot / name).chmod(0o755)
    assert [p.relative_to(slot).as_posix() for p in slot_programs(slot)] == programs


def test_a_folder_program_runs_the_python_file_no_other_imports(tmp_path):
    """2023-07's output_validator/ with validate.py and its helper aaa.py (first by name, unmarked):
    the helper was run as the validator."""
    folder = tmp_path / "output_validator"
    folder.mkdir()
    (folder / "aaa.py").write_text("STATUS = 42\n")
    (folder / "validate.py").write_text("import aaa\nraise SystemExit(aaa.STATUS)\n")
    command = prepare(folder, "output validator", scratch := [])
    assert command[-1].endswith("validate.py") and scratch


def test_our_own_problems_checker_cpp_finds_the_testlib_h_beside_it(tmp_path):
    """docs/problem-format.md promised it (`checker: testlib`, the setter's testlib.h beside
    checker.cpp); the checker was compiled alone: 'testlib.h: No such file or directory'."""
    (tmp_path / "problem.yaml").write_text("checker: testlib\n")
    (tmp_path / "testlib.h").write_text("#define VERDICT 0\n")
    (tmp_path / "checker.cpp").write_text('#include "testlib.h"\nint main() { return VERDICT; }\n')
    assert testlib.TestlibChecker(tmp_path / "checker.cpp").judge(b"1\n", b"1\n", b"1\n").ok


def test_two_output_validators_are_named_in_the_refusal(judge, tmp_path):
    shutil.copytree(LAYOUTS / "pyhelper", tmp_path / "problems" / "pyhelper")
    (tmp_path / "problems" / "pyhelper" / "output_validators" / "other.py").write_text("raise SystemExit(42)\n")
    code, out, err = judge("--problems", tmp_path / "problems", "check", "pyhelper")
    assert code == 2
    assert ("a custom output validator needs exactly one under output_validator(s)/, found 2 "
            "(output_validators/other.py, output_validators/validate.py)") in err
