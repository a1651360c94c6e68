"""Kattis/ICPC problem packages read as they are: the legacy format (testdata/kattis/addtwo) and the
ICPC 2023-07 format (testdata/kattis/splitsum), graded and checked with the usual commands."""

from __future__ import annotations

import re
import shutil
import sys

import pytest

from tcjudge.errors import JudgeInputError
from tcjudge.languages import C, CPP, EXTENSIONS
from tcjudge.problems.catalog import Catalog
from tcjudge.problems.kattis import PACKAGE
from tcjudge.problems.loader import load_problem
from tcjudge.problems.checkers.output_validator import OutputValidator
from tcjudge.problems.checkers.tokens import TokenRules
from tcjudge.verdicts import Verdict

from .conftest import TESTDATA

PACKAGES = TESTDATA / "kattis"


def test_legacy_package():
    problem = load_problem(PACKAGES / "addtwo")
    assert (problem.kind, problem.package, problem.name) == (PACKAGE, "Kattis legacy", "Add Two")  # \problemname
    assert (problem.time_limit, problem.memory_limit) == (1.0, 256)  # .timelimit, limits.memory
    assert problem.check.settings == TokenRules(float_absolute=1e-6, float_relative=1e-6)
    assert [t.name for t in problem.tests] == ["sample/1", "sample/2", "secret/01-zero", "secret/02-fraction",
                                               "secret/03-large"]
    assert [t.name for t in problem.examples] == ["sample/1", "sample/2"]
    assert problem.tests[1].input.read() == b"0.5 0.25\n" and problem.tests[1].answer.read() == b"0.75\n"


def test_icpc_package():
    problem = load_problem(PACKAGES / "splitsum")
    assert (problem.package, problem.name, problem.time_limit, problem.memory_limit) == (
        "ICPC 2023-07-draft", "Split Sum", 1.0, 256)
    assert isinstance(problem.check.settings, OutputValidator)
    assert problem.check.settings.path == (PACKAGES / "splitsum" / "output_validator").resolve()
    assert [t.name for t in problem.tests] == ["sample/1", "secret/large/01", "secret/small/01", "secret/small/02"]


def test_submissions_by_verdict_folder():
    catalog = Catalog(PACKAGES, TESTDATA / "no-solutions-folder", EXTENSIONS)
    stored = {path.name: verdict for path, verdict in
              ((s.path, s.expected.verdict) for s in catalog.stored_solutions("addtwo"))}
    cpp = {"sum.cpp": Verdict.AC} if CPP.toolchain() else {}  # graded where g++ is installed, else noted
    cpp |= {"sum.c": Verdict.AC} if C.toolchain() else {}  # likewise gcc
    assert stored == {"sum.py": Verdict.AC, "integers.py": Verdict.WA, "counts_up.py": Verdict.TLE,
                      "int_parse.py": Verdict.RE, "out_of_memory.py": Verdict.RE} | cpp
    assert sorted(p.name for p in catalog.skipped) == sorted({"sum.c", "sum.cpp"} - set(cpp))


def test_check_grades_every_package_submission(judge):
    code, out, err = judge("--problems", PACKAGES, "check", "-j", "2")
    assert code == 0, out
    assert re.search(r"\b(\d+) of \1 solutions got their expected verdict", out), out
    if CPP.toolchain() is None:
        assert "judge: note: not graded (a language, compiler or layout the judge cannot run here): " in err
        assert "sum.cpp" in err
    else:  # the C++ submissions are graded like the others
        assert re.search(r"addtwo/submissions/accepted/sum\.cpp +AC +AC", out), out
        assert "not graded" not in err


def test_grade_a_file_against_a_package(judge, tmp_path):
    solution = tmp_path / "split.py"
    solution.write_text("n = int(input())\nprint(n - 2, 2)\n")
    code, out, _ = judge("--problems", PACKAGES, "grade", solution, "--problem", "splitsum", "-j", "1")
    assert code == 1  # n = 2 has no split with b = 2
    assert "WA  passed 3/4" in out and "first failure: secret/small/01: 0 and 2 are not both positive" in out


def _copy(tmp_path, name="addtwo"):
    target = tmp_path / "packages" / name
    shutil.copytree(PACKAGES / name, target)
    return target


CPP20 = """\
#include <cstdio>
#include <ranges>
#include <vector>
int main() {  // std::ssize and the ranges are C++20's
    std::vector<double> terms(2);
    for (double &term : terms)
        if (std::scanf("%lf", &term) != 1) return 1;
    double sum = 0;
    for (double term : terms | std::views::take(std::ssize(terms))) sum += term;
    std::printf("%.9f\\n", sum);
}
"""


@pytest.mark.skipif(CPP.toolchain() is None, reason=CPP.missing_message())
def test_a_packages_cpp_is_compiled_at_the_newest_standard(tmp_path, judge):
    """issue 46: a package's C++ was compiled as gnu++17, CE "'ssize' was not declared in this scope";
    problemtools and Kattis compile it with -std=gnu++23 (our own problems keep the archive rule)."""
    package = _copy(tmp_path)
    solution = package / "submissions" / "accepted" / "ranges.cpp"
    solution.write_text(CPP20)
    built = CPP.build(solution, load_problem(package), 1 << 20)
    assert built.detail["standard"] in ("gnu++23", "gnu++2b", "gnu++20")
    code, out, err = judge("--problems", package.parent, "grade", solution, "--problem", "addtwo", "-j", "1")
    assert code == 0 and "AC  passed 5/5" in out, out + err


@pytest.mark.parametrize("edit, message", [
    (lambda p: (p / "problem.yaml").write_text("validation: custom interactive\n"),  # no interactor
     "a custom output validator needs exactly one under output_validator(s)/, found 0"),
    (lambda p: (p / "data" / "secret" / "testdata.yaml").write_text("output_validator_flags: [[nested]]\n"),
     "output_validator_flags: expected text or a list of words"),
    (lambda p: (p / "data" / "secret" / "01-zero.ans").unlink(), "01-zero.in: no answer file 01-zero.ans beside it"),
    (lambda p: (p / ".timelimit").write_text("soon\n"), ".timelimit: time limit: expected seconds"),
    (lambda p: (p / "problem.yaml").write_text("validation: custom\n"),
     "a custom output validator needs exactly one under output_validator(s)/, found 0"),
])
def test_unsupported_or_broken_packages_are_refused_with_a_reason(tmp_path, edit, message):
    package = _copy(tmp_path)
    edit(package)
    with pytest.raises(JudgeInputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_problem(package)


def test_validate_reads_packages_in_their_own_layout(judge):
    code, out, _ = judge("--problems", PACKAGES, "validate")
    assert code == 0, out
    assert "addtwo: ok" in out and "splitsum: ok" in out


def test_a_testdata_yaml_of_comments_only_is_an_empty_one(tmp_path):
    """issue 21: before, 'expected a mapping' refused the package."""
    package = _copy(tmp_path)
    (package / "data" / "secret" / "testdata.yaml").write_text("# nothing to set for this group\n")
    assert load_problem(package).tests


def test_an_output_validator_with_a_build_script_is_built_first(tmp_path, judge):
    """issue 21: the format's build script runs in (a copy of) the validator's folder and makes `run`;
    before, `run` was missing and every test was IE."""
    package = _copy(tmp_path, "splitsum")
    folder = package / "output_validator"
    (folder / "validate.py").rename(folder / "validate.py.in")
    build = folder / "build"
    build.write_text('#!/bin/sh\nset -e\ncp validate.py.in validate.py\n'
                     f'printf \'#!/bin/sh\\nexec {sys.executable} "$(dirname "$0")/validate.py" "$@"\\n\' > run\n'
                     'chmod +x run\n')
    build.chmod(0o755)
    code, out, err = judge("--problems", package.parent, "check", "splitsum", "-j", "2")
    assert code == 0, out + err
    assert not (folder / "run").exists()  # built in a copy: the package is left as it was


def test_a_package_with_nothing_to_run_names_its_own_submissions_folder(tmp_path, judge):
    """issue 21: before, 'no stored solutions to grade' named a solutions/ folder the package has not."""
    package = _copy(tmp_path)
    shutil.rmtree(package / "submissions")
    (package / "submissions" / "accepted").mkdir(parents=True)
    (package / "submissions" / "accepted" / "main.ml").write_text("let () = ()\n")  # a language never run here (OCaml)
    code, _out, err = judge("--problems", package.parent, "check")
    assert code == 2
    assert "addtwo/submissions: no stored solutions to grade: 1 stored solution left out" in err, err


TWO_NUMBERS = """\
import re, sys
number = r"-?\\d+(\\.\\d+)?(e\\d+)?"
if not re.fullmatch(f"{number} {number}\\n", sys.stdin.read()):
    print("expected two numbers on one line")
    sys.exit(43)
sys.exit(42)
"""


def test_validate_runs_the_input_validators_on_every_input(tmp_path, judge):
    """issue 21: input_validators/ were not read; now each input they reject is named, with their words."""
    package = _copy(tmp_path)
    validator = package / "input_validators" / "two_numbers"
    validator.mkdir(parents=True)
    (validator / "validate.py").write_text(TWO_NUMBERS)
    code, out, err = judge("--problems", package.parent, "validate", "addtwo")
    assert code == 0, out + err
    (package / "data" / "secret" / "04-three.in").write_text("1 2 3\n")
    (package / "data" / "secret" / "04-three.ans").write_text("6\n")
    code, out, err = judge("--problems", package.parent, "validate", "addtwo")
    assert code == 1
    assert "data/secret/04-three.in: error: rejected by input validator two_numbers: expected two numbers" in out + err
    assert (out + err).count("rejected by input validator") == 1


def test_a_checktestdata_script_without_the_tool_is_one_warning(tmp_path, judge, monkeypatch):
    package = _copy(tmp_path)
    (package / "input_validators" / "format").mkdir(parents=True)
    (package / "input_validators" / "format" / "format.ctd").write_text("FLOAT SPACE FLOAT NEWLINE EOF\n")
    monkeypatch.setenv("PATH", "/nonexistent")
    code, out, err = judge("--problems", package.parent, "validate", "addtwo")
    assert code == 0 and "input validator skipped: checktestdata is not installed" in out + err


def test_limits_output_is_the_package_output_limit(tmp_path, judge):
    """issue 21: limits.output (MiB; the format's default is 8) was not read: 64 MiB for every package."""
    package = _copy(tmp_path)
    spec = package / "problem.yaml"
    spec.write_text(spec.read_text().replace("limits:\n", "limits:\n  output: 1\n"))
    assert load_problem(package).output_limit == 1
    chatty = tmp_path / "chatty.py"
    chatty.write_text("a, b = map(float, input().split())\nprint(a + b)\nprint(' ' * (2 << 20))\n")
    code, out, _ = judge("--problems", package.parent, "grade", chatty, "--problem", "addtwo", "--examples")
    assert code == 1 and "output limit exceeded: more than 1 MiB on standard output" in out, out
    spec.write_text(spec.read_text().replace("  output: 1\n", ""))
    assert load_problem(package).output_limit == 8


def test_a_linked_submission_is_named_and_expected_by_its_own_path(tmp_path, judge, monkeypatch):
    """issue 46: a link was reported under its target's path (BAPCtools' identity: four rows named
    run_time_error/rte.py, each expecting another verdict), and a link's note named the target. Each is
    the submission its own path names, graded from the target's content, as problemtools reads it; a
    target outside the package is graded too."""
    package = _copy(tmp_path)
    submissions = package / "submissions"
    shutil.rmtree(submissions)
    (submissions / "accepted").mkdir(parents=True)
    (submissions / "wrong_answer").mkdir()
    shutil.copy(PACKAGES / "addtwo" / "submissions" / "accepted" / "sum.py", submissions / "accepted" / "sum.py")
    (submissions / "wrong_answer" / "sum_link.py").symlink_to("../accepted/sum.py")
    (tmp_path / "elsewhere").mkdir()
    shutil.copy(submissions / "accepted" / "sum.py", tmp_path / "elsewhere" / "mine.py")
    (submissions / "accepted" / "outside.py").symlink_to(tmp_path / "elsewhere" / "mine.py")
    (submissions / "top.py").symlink_to("accepted/sum.py")
    monkeypatch.chdir(tmp_path)  # paths shown from the working folder, where the links were followed
    code, out, err = judge("--problems", package.parent, "check", "addtwo", "-j", "1")
    rows = {line.split()[0].split("/submissions/")[1]: line.split()[1:4] for line in out.splitlines()
            if "/submissions/" in line and not line.startswith(" ")}
    assert rows == {"accepted/outside.py": ["AC", "AC", "-"], "accepted/sum.py": ["AC", "AC", "-"],
                    "wrong_answer/sum_link.py": ["WA", "AC", "-"]}, out
    assert code == 1 and re.search(r"not graded \(nothing says what it should get.*\): \S*/submissions/top\.py$", err,
                                   re.MULTILINE), err
    code, out, err = judge("--problems", package.parent, "history", submissions / "wrong_answer" / "sum_link.py")
    assert code == 0 and [line.split()[5] for line in out.splitlines()[2:]] == ["WA"], out  # its own, not sum.py's
    catalog = Catalog(package.parent, tmp_path / "no-solutions-folder", EXTENSIONS)  # what `grade` of it expects
    stored = catalog.stored_solution(catalog.problem("addtwo"), submissions / "wrong_answer" / "sum_link.py")
    assert stored.expected.verdict is Verdict.WA
