"""Real packages' layouts, names and languages (issue 35): each test reproduces a cause of a miss seen
while grading public packages (problemtools' examples, the format's examples, BAPCtools' test
problems, contest archives), on our own fixtures in testdata/kattis_layouts/ (see its README)."""

from __future__ import annotations

import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from tcjudge.languages.c import C
from tcjudge.languages.cpp import CPP
from tcjudge.languages.java import JAVA
from tcjudge.languages.kotlin import KOTLIN
from tcjudge.languages.python import PYTHON
from tcjudge.problems.checkers.output_validator import OutputValidator
from tcjudge.problems.constants import read_constants
from tcjudge.problems.expectations import folder_default
from tcjudge.problems.loader import load_problem
from tcjudge.problems.programs import ProgramFailed, prepare, program_folder

from .conftest import TESTDATA

LAYOUTS = TESTDATA / "kattis_layouts"


def test_legacy_package_with_python2_and_folder_aliases_grades_as_its_authors_expect(judge):
    """Python 2 submissions are left out with one note each, never a CE that refuses the package
    while its time limit is computed; run_time_exception/ and runtime_error/ are run_time_error/;
    a C++ program asking for its whole memory limit is RE at once (before: TLE); the legacy time
    limit comes from accepted/ alone (slow_crash.py's half second does not raise it)."""
    code, out, err = judge("--problems", LAYOUTS, "check", "legacysum")
    assert code == 0, out + err
    assert "6 of 6 solutions got their expected verdict" in out
    assert ("judge: note: not graded (Python 2 (its #! line names python2), which the judge does not run): "
            in err and "sum_shebang.py" in err)
    assert "not graded (Python 2 (line 3: print a), which the judge does not run)" in err
    assert "slow_accepted/sum_slowly.py" in err and "nothing says what it should get" in err
    assert "legacysum: time limit 1 s (computed from the submissions: slowest" in out
    assert "accepted/sum.py" in out.split("legacysum: time limit")[1].splitlines()[0]
    for name in ("run_time_exception/index.py", "runtime_error/divide.py", "run_time_error/whole_limit.cpp"):
        assert any(name in line and line.rstrip().endswith("ok") and " RE " in line for line in out.splitlines()), name


def test_an_accepted_submission_that_fails_while_the_limit_is_computed_is_named_and_left_out(judge, tmp_path):
    problems = tmp_path / "problems"
    shutil.copytree(LAYOUTS / "legacysum", problems / "legacysum")
    (problems / "legacysum" / "submissions" / "accepted" / "typo.c").write_text("int main(void) { return 0 }\n")
    code, out, err = judge("--problems", problems, "check", "legacysum")
    assert code == 1  # typo.c itself is a mismatch, and nothing else is
    assert "judge: warning: legacysum: time limit computed without" in err and "typo.c: it gets CE" in err
    assert "legacysum: time limit 1 s (computed from the submissions" in out
    assert "6 of 7 solutions got their expected verdict" in out


def test_python2_is_told_by_its_shebang_or_a_statement_only_python2_parses(tmp_path):
    cases = {
        "shebang.py": ("#!/usr/bin/env python2\nprint(1)\n", True),
        "statement.py": ("x = 1\nprint x\n", True),
        "redirect.py": ("import sys\nprint >>sys.stderr, 'x'\n", True),
        "except.py": ("try:\n    pass\nexcept ValueError, err:\n    pass\n", True),
        "python3.py": ("print(1)\nprint (2)\nprint = len\nx = [print]\n", False),
        "docstring.py": ('"""\nprint this, then that\n"""\nprint(1)\n', False),
    }
    for name, (text, python2) in cases.items():
        (tmp_path / name).write_text(text)
        assert (PYTHON.unsupported(tmp_path / name) is not None) == python2, name


def test_grade_refuses_a_python2_file_in_one_line(judge, tmp_path):
    solution = tmp_path / "old.py"
    solution.write_text("a, b = map(int, raw_input().split())\nprint a + b\n")
    code, out, err = judge("--problems", LAYOUTS, "grade", solution, "--problem", "legacysum")
    assert code != 0 and "not graded: Python 2 (line 2: print a)" in err, out + err


def test_an_interactor_nested_in_output_validator_with_a_helper_module(judge):
    code, out, err = judge("--problems", LAYOUTS, "check", "guessnested")
    assert code == 0, out + err
    assert "3 of 3 solutions got their expected verdict" in out
    assert program_folder(LAYOUTS / "guessnested" / "output_validator").name == "judge"


def test_a_legacy_validator_kept_in_the_singular_folder_is_the_packages(judge):
    """DOMjudge's legacy examples (hangman, jumble) keep their validator's program directly in
    output_validator/; the judge refused them ("needs exactly one ..., found 0")."""
    code, out, err = judge("--problems", LAYOUTS, "check", "singularlegacy")
    assert code == 0, out + err
    assert "2 of 2 solutions got their expected verdict" in out


def test_validate_runs_input_validators_of_every_layout(judge):
    """A folder of C++ sources with a header (legacysum), a build script that makes `run`
    (guessnested), Python with {{constants}} (constsum)."""
    code, out, err = judge("--problems", LAYOUTS, "validate", "constsum", "guessnested", "legacysum", "nextone",
                           "partialscore", "singularlegacy")  # (leftout's faults are its point)
    assert code == 0, out + err
    assert "6 of 6 problems valid" in out


def test_validate_names_the_input_validator_that_rejects(judge, tmp_path):
    problems = tmp_path / "problems"
    for name in ("legacysum", "guessnested"):
        shutil.copytree(LAYOUTS / name, problems / name)
    (problems / "legacysum" / "data" / "secret" / "2.in").write_text("1000 1001\n")
    (problems / "guessnested" / "data" / "secret" / "2.in").write_text("101\n")
    code, out, err = judge("--problems", problems, "validate")
    assert code != 0
    assert "2.in: error: rejected by input validator bounds: expected an integer in [-1000, 1000]" in out + err
    assert "2.in: error: rejected by input validator input_validator: expected one number in [1, 100]" in out + err


def test_constants_are_replaced_in_submissions_included_files_and_validators(judge):
    code, out, err = judge("--problems", LAYOUTS, "check", "constsum")
    assert code == 0, out + err
    assert "4 of 4 solutions got their expected verdict" in out
    problem = load_problem(LAYOUTS / "constsum")
    assert problem.constants == {"cap": "50", "cap.value": "50", "cap.words": "fifty"}
    assert problem.check.settings.constants == problem.constants


@pytest.mark.parametrize("spec, why", [
    ({"constants": {"2x": 1}}, "is not a name"),
    ({"constants": {"x": {"words": "one"}}}, "has no 'value'"),
    ({"constants": [1]}, "expected a mapping"),
])
def test_bad_constants_are_refused(spec, why):
    assert why in read_constants(spec)[1]


@pytest.mark.parametrize("folder, canonical", [
    ("run_time_exception", "run_time_error"), ("runtime_error", "run_time_error"), ("Run-Time-Error", "run_time_error"),
    ("rejected", "rejected"), ("brute_force", "brute_force"), ("timelimit", "time_limit_exceeded"),
    ("slow_accepted", None), ("mixed", None),
])
def test_verdict_folders_as_authors_name_them(folder, canonical):
    assert folder_default(folder) == canonical


def _write(path: Path, text: str, executable: bool = False) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if executable:
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_programs_of_each_layout_run(tmp_path):
    """One C file; a Python package (__main__.py); Java sources; a folder nested in another."""
    layouts = {
        "c": _write(tmp_path / "c" / "v.c", "int main(void) { return 42; }\n").parent,
        "package": _write(tmp_path / "package" / "__main__.py", "from .rule import STATUS\nraise SystemExit(STATUS)\n")
        .parent,
        "java": _write(tmp_path / "java" / "Check.java",
                       "public class Check { public static void main(String[] a) { System.exit(42); } }\n").parent,
        "nested": _write(tmp_path / "nested" / "inner" / "v.py", "raise SystemExit(42)\n").parents[1],
    }
    _write(tmp_path / "package" / "__init__.py", "")
    _write(tmp_path / "package" / "rule.py", "STATUS = 42\n")
    for name, path in layouts.items():
        if name == "java" and shutil.which("javac") is None:
            continue
        scratch: list = []
        command = prepare(path, f"validator {name}", scratch)
        assert subprocess.run(command, cwd=tmp_path).returncode == 42, (name, command)


def test_every_failure_of_a_program_names_it_and_says_its_last_lines(tmp_path):
    build = _write(tmp_path / "broken" / "build", "#!/bin/sh\necho compiling >&2\necho 'no compiler here' >&2\nexit 2\n",
                   executable=True)
    with pytest.raises(ProgramFailed, match=r"grader broken: its build script exited with status 2: "
                                            r"compiling \| no compiler here"):
        prepare(build.parent, "grader broken", [])
    with pytest.raises(ProgramFailed, match=r"interactor bad: g\+\+ failed: .*error"):
        prepare(_write(tmp_path / "bad" / "bad.cpp", "int main() { return x; }\n").parent, "interactor bad", [])
    crash = _write(tmp_path / "crash" / "crash.py",
                   "import sys\nprint('reading the answer', file=sys.stderr)\nprint('IndexError: list index', "
                   "file=sys.stderr)\nsys.exit(3)\n")
    verdict = OutputValidator(crash.parent, []).with_flags([])
    with verdict.session(b"1\n") as session:
        comparison = session.check(b"1\n", b"1\n")
    assert comparison.judge_fault
    assert "output validator" in comparison.message and "crash" in comparison.message
    assert "exited with status 3, not 42 or 43: reading the answer | IndexError: list index" in comparison.message


def test_partially_accepted_of_a_2025_09_scoring_package_is_judged_by_its_score(judge):
    """The format's own scoring example: a WA on one group is what partially_accepted/ means there."""
    code, out, err = judge("--problems", LAYOUTS, "check", "partialscore")
    assert code == 0, out + err
    assert "partially_accepted/small_only.py: WA 40 (expected AC, score in [0, 100))" in out


def test_a_program_folder_may_link_a_header_kept_outside_it(tmp_path):
    """BAPCtools' test packages link validation.h from the tool's own tree (a relative link)."""
    _write(tmp_path / "shared" / "answer.h", "#define ANSWER 42\n")
    program = tmp_path / "package" / "output_validator"
    _write(program / "v.cpp", '#include "answer.h"\nint main() { return ANSWER; }\n')
    (program / "answer.h").symlink_to("../../shared/answer.h")
    (program / "gone.h").symlink_to("../../nowhere/gone.h")  # left out, not a failure
    scratch: list = []  # (holds the built program as long as the test needs it)
    command = prepare(program, "output validator v", scratch)
    assert subprocess.run(command).returncode == 42


def test_spaces_around_a_brace_choice_are_not_part_of_it():
    from tcjudge.problems.expectations import covers

    assert covers("secret/*{ 4 }{ 2 }", "secret/42") and not covers("secret/*{ 4 }{ 2 }", "secret/43")


def test_an_interactor_sees_the_programs_output_end_when_the_program_ends(judge):
    """BAPCtools' guess (`*_close_stdout_*`) and interactivemultipass: the program's output ends for
    the interactor when the program ends (problemtools' runner and BAPCtools' relay hold its write end
    until then), and the interactor's writes never fail for want of a reader. Before: a program that
    closed its output got WA at once (RE and TLE expected), and a Python interactor whose flush at exit
    found the program gone exited 120: IE (WA expected)."""
    code, out, err = judge("--problems", LAYOUTS, "check", "nextone")
    assert code == 0, out + err
    assert "4 of 4 solutions got their expected verdict" in out


def test_an_interactor_that_fails_is_named_with_its_last_lines(judge, tmp_path):
    """Before: 'the interactor exited with status 1, not 42 or 43' (its standard error went nowhere)."""
    problems = tmp_path / "problems"
    shutil.copytree(LAYOUTS / "nextone", problems / "nextone")
    _write(problems / "nextone" / "output_validator" / "interactor.py",
           "import sys\nprint('reading the input', file=sys.stderr)\nraise ValueError('no number in it')\n")
    solution = problems / "nextone" / "submissions" / "accepted" / "next.py"
    code, out, err = judge("--problems", problems, "grade", solution, "--problem", "nextone")
    assert code != 0
    assert ("sample/1: the output validator nextone/output_validator exited with status 1, not 42 or 43: "
            "raise ValueError('no number in it') | ValueError: no number in it") in out, out + err


def test_class_names_of_files_named_as_domjudge_names_them():
    """kotlinc's facade class of test-hello.kt is Test_helloKt (before: Test-helloKt, CE); a Java
    folder's entry file test-hello.java holding `class Main` runs Main (before: class test-hello, CE)."""
    from tcjudge.languages.kotlin import facade_class

    assert facade_class("test-hello") == "Test_helloKt" and facade_class("main") == "MainKt"
    assert facade_class("a.b+c") == "A_b_cKt"
    main = "class Main {\n  public static void main(String[] a) {}\n}\n"
    assert JAVA.entry_class(main, "test-hello") == "Main"
    assert JAVA.entry_class("class Helper {}\n" + main, "x") == "Main"
    assert JAVA.entry_class("class Helper {}\npublic class Solution {}\n", "x") == "Solution"
    assert JAVA.entry_class(main, "Main") == "Main" and JAVA.entry_class("", "Main") == "Main"


@pytest.mark.skipif(KOTLIN.toolchain() is None or JAVA.toolchain() is None, reason="kotlinc or a JDK is missing")
def test_kotlin_and_java_submissions_with_odd_file_names_are_graded(judge):
    code, out, err = judge("--problems", LAYOUTS, "check", "oddnames")
    assert code == 0, out + err
    assert "3 of 3 solutions got their expected verdict" in out


@pytest.mark.skipif(CPP.toolchain() is None or C.toolchain() is None, reason="gcc or g++ is missing")
def test_c_and_cpp_threads_with_default_attributes_start(judge):
    """Before: pthread_create failed (EAGAIN: a thread's default stack was the stack limit, the
    memory limit) and both submissions exited 1 / aborted: RE."""
    code, out, err = judge("--problems", LAYOUTS, "check", "threaded")
    assert code == 0, out + err
    assert "2 of 2 solutions got their expected verdict" in out


def test_a_computed_time_limits_timing_run_is_not_the_last_run_a_check_compares_with(judge, tmp_path):
    """The timing run grades a package's submissions at the timing's cap and stops each at its first
    failure: a check compared its full results with those, and every check of problemtools' oddecho
    said "partially_accepted/sol.py: WA 0 -> AC 50" though nothing had changed."""
    package = tmp_path / "problems" / "partialscore"
    shutil.copytree(LAYOUTS / "partialscore", package)
    yaml = package / "problem.yaml"
    yaml.write_text(yaml.read_text().replace("limits:\n  time_limit: 2\n", ""))
    assert "time_limit" not in yaml.read_text()
    for time in range(2):  # (the second check takes the limit the first computed and kept: issue 48)
        code, out, err = judge("--problems", package.parent, "check", "partialscore")
        assert code == 0, out + err
        assert ("Timing" in out) == (time == 0) and "small_only.py: WA 40" in out, out
    assert "changes since the last run: none" in out and "; kept from " in out, out
