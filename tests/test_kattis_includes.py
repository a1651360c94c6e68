"""Issue 46: a package's include/<language>/ as Kattis uses it: where the included files bring the entry
point (include/python3/main.py, include/java/Main.java, include/cpp/runner.cpp with main), that program
runs and the submission is the part it calls (testdata/kattis/pymain, javamain, cpprunner)."""

from __future__ import annotations

import re
import shutil

import pytest

from tcjudge.languages import CPP, JAVA, PYTHON
from tcjudge.problems.loader import load_problem

from .conftest import TESTDATA

KATTIS = TESTDATA / "kattis"


@pytest.mark.parametrize("slug, language", [("pymain", PYTHON), ("cpprunner", CPP), ("javamain", JAVA)])
def test_the_packages_entry_point_runs_the_submission(judge, tmp_path, slug, language):
    """Each package's accepted submission (only the part the package's program calls) gets AC and its
    wrong one WA. Before: javamain's were CE 'class Adder has no method public static void main'
    (the submission's class was taken for the program); pymain and cpprunner passed already (a Python
    driver main.py since issue 21; C++ compiles every file of a program together)."""
    if language.toolchain() is None:
        pytest.skip(f"{language.title} is not installed here")
    shutil.copytree(KATTIS / slug, tmp_path / "problems" / slug)
    code, out, err = judge("--problems", tmp_path / "problems", "check")
    assert code == 0, out + err
    assert "2 of 2 solutions got their expected verdict" in out, out + err
    assert re.search(r"ok[ \t]+\S*/accepted/\S+: AC", out) and re.search(r"ok[ \t]+\S*/wrong_answer/\S+: WA", out), out


def test_only_an_included_entry_point_makes_a_runner():
    """The included file that is the program: `main.*` of the language (problemtools' main file), or a C
    or C++ source defining main; a reader such as product's kattio is none (the submission runs)."""
    assert PYTHON.included_entry(load_problem(KATTIS / "pymain")) == "main.py"
    assert JAVA.included_entry(load_problem(KATTIS / "javamain")) == "Main.java"
    assert CPP.included_entry(load_problem(KATTIS / "cpprunner")) == "runner.cpp"
    product = load_problem(KATTIS / "product")
    assert [language.included_entry(product) for language in (PYTHON, JAVA, CPP)] == [None, None, None]
    assert CPP.tree_fields(product) == {} and CPP.tree_fields(load_problem(KATTIS / "cpprunner")) == {"processes": True}
