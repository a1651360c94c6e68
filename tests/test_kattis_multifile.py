"""Issue 21: a package's multi-file submissions (a folder under submissions/<kind>/) and its include/
files, graded in the engine (testdata/kattis/product); hostile folders; the history's hash of a
folder; Kotlin's one note per package; --show-output after a run-time error (Python and Java)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from tcjudge.languages import CPP, JAVA, KOTLIN, PYTHON
from tcjudge.languages import kotlin as kotlin_language
from tcjudge.problems.format import language_of
from tcjudge.languages import EXTENSIONS
from tcjudge.protocol import SourceError, read_tree
from tcjudge.reports.fingerprints import solution_hash

from .conftest import FIXTURE_PROBLEMS, FIXTURE_SOLUTIONS, TESTDATA

PRODUCT = TESTDATA / "kattis" / "product"
FOLDERS = ["accepted/cpp_parts", "accepted/java_main", "accepted/java_marked", "accepted/py_main",
           "accepted/py_marked", "accepted/single_include.py", "run_time_error/java_throws",
           "run_time_error/py_throws", "wrong_answer/cpp_adds", "wrong_answer/py_adds"]
needs_compilers = pytest.mark.skipif(CPP.toolchain() is None or JAVA.toolchain() is None,
                                     reason="g++ and a JDK are needed to grade the C++ and Java folders")


@pytest.fixture
def problems(tmp_path) -> Path:
    """A copy of the product package, to edit and to grade with a history of its own."""
    shutil.copytree(PRODUCT, tmp_path / "problems" / "product")
    return tmp_path / "problems"


@needs_compilers
def test_check_grades_every_folder_and_the_included_files(judge, problems):
    """Before: every folder was 'judge: note: not graded', and single_include.py (which imports the
    package's include/python3/kattio.py) was RE."""
    code, out, err = judge("--problems", problems, "check", "-j", "2")
    assert code == 0, out + err
    for name in FOLDERS:
        assert re.search(rf"ok\s+\S*product/submissions/{re.escape(name)}:", out), (name, out)
    count = 10 if KOTLIN.toolchain() is None else 12  # the two Kotlin folders are graded where kotlinc is
    assert f"{count} of {count} solutions got their expected verdict" in out
    assert "not graded" not in err


def test_kotlin_without_kotlinc_is_one_note_per_package(judge, problems, monkeypatch):
    """kotlinc is hidden from the judge (as on a machine without it), so the note is checked where it
    is installed too (before: skipped there)."""
    monkeypatch.setattr(kotlin_language, "_kotlinc", lambda: None)
    for folder in ("cpp_parts", "java_main", "java_marked"):  # (quicker: the note is what is checked)
        shutil.rmtree(problems / "product" / "submissions" / "accepted" / folder)
    shutil.rmtree(problems / "product" / "submissions" / "run_time_error" / "java_throws")
    shutil.rmtree(problems / "product" / "submissions" / "wrong_answer" / "cpp_adds")
    code, _, err = judge("--problems", problems, "check")
    notes = [line for line in err.splitlines() if "Kotlin" in line]
    assert code == 0 and notes == ["judge: note: product: 2 Kotlin submissions skipped: Kotlin is unavailable: "
                                   "kotlinc was not found on PATH, or no JDK beside it"], err


@pytest.mark.skipif(KOTLIN.toolchain() is None, reason="kotlinc is not installed here")
def test_kotlin_folder_is_graded(judge, problems):
    code, out, err = judge("--problems", problems, "grade", problems / "product" / "submissions" / "accepted" / "kt_parts",
                           "--problem", "product")
    assert code == 0 and "AC" in out, out + err


def test_entry_file_is_the_formats_then_the_marked_one_then_the_first():
    assert PYTHON.entry_file({"a.py": b"", "Main.py": b"", "z.py": b""}) == "Main.py"  # any case, as problemtools
    marked = b'if __name__ == "__main__":\n    run()\n'
    assert PYTHON.entry_file({"a.py": b"", "solve.py": marked}) == "solve.py"
    assert PYTHON.entry_file({"b.py": marked, "c.py": marked, "a.txt": b""}) == "b.py"  # two marked: the first
    assert PYTHON.entry_file({"sub/main.py": b"", "x.py": b""}) == "x.py"  # only the folder's top
    assert JAVA.entry_file({"Arith.java": b"", "Solve.java": b"public static void main(String[] a) {}"}) == "Solve.java"


def test_a_folders_language_is_most_of_its_files(tmp_path):
    for name in ("a.cpp", "b.cpp", "c.py", "d.h"):
        (tmp_path / name).write_text("")
    assert language_of(tmp_path, EXTENSIONS) is CPP
    (tmp_path / "e.py").write_text("")
    assert language_of(tmp_path, EXTENSIONS) is None  # a tie: the format cannot tell either


def test_read_tree_takes_the_folder_and_nothing_beyond_it(tmp_path):
    folder = tmp_path / "sub"
    (folder / "pkg").mkdir(parents=True)
    (folder / "main.py").write_bytes(b"import pkg.mod\n")
    (folder / "pkg" / "mod.py").write_bytes(b"x = 1\n")
    (folder / ".hidden").write_bytes(b"left out")
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "main.cpython-312.pyc").write_bytes(b"left out")
    assert read_tree(folder, 1024) == {"main.py": b"import pkg.mod\n", "pkg/mod.py": b"x = 1\n"}
    with pytest.raises(SourceError, match="over the 0 KiB limit"):
        read_tree(folder, 10)


@pytest.mark.parametrize("name, plant, said", [
    ("answers.h", lambda path, target: os.symlink(target, path), "a link"),
    ("-fplugin=x.cpp", lambda path, target: path.write_text(""), "a file name the judge does not take"),
    ("new\nline.py", lambda path, target: path.write_text(""), "a file name the judge does not take"),
    ("fifo.py", lambda path, target: os.mkfifo(path), "not a regular file"),
])
def test_read_tree_refuses_what_could_escape(tmp_path, name, plant, said):
    secret = tmp_path / "secret.ans"
    secret.write_text("the expected answer")
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / "main.cpp").write_text("int main() {}\n")
    plant(folder / name, secret)
    with pytest.raises(SourceError, match=said):
        read_tree(folder, 1 << 20)


def test_no_name_can_climb_out_or_be_an_option():
    """A listing never holds `..` or a slash; the name rule refuses them anyway, and a leading dash."""
    from tcjudge.protocol import TREE_NAME

    assert [name for name in ("..", ".", "a/../b", "-o", "--x", " a.py", "a b.py", "ü.py", "main.py", "Main.java",
                              "mul.h", "a+b.cc", "_x.py") if TREE_NAME.match(name)] == [
        "main.py", "Main.java", "mul.h", "a+b.cc", "_x.py"]


def test_a_deep_or_crowded_folder_is_refused(tmp_path):
    deep = tmp_path / "deep" / "a" / "b" / "c" / "d"
    deep.mkdir(parents=True)
    (deep / "x.py").write_text("")
    with pytest.raises(SourceError, match="nested deeper"):
        read_tree(tmp_path / "deep", 1 << 20)
    crowded = tmp_path / "crowded"
    crowded.mkdir()
    for number in range(101):
        (crowded / f"m{number}.py").write_text("")
    with pytest.raises(SourceError, match="more than 100 files"):
        read_tree(crowded, 1 << 20)


@pytest.mark.parametrize("folder", ["accepted/py_main", pytest.param("accepted/cpp_parts", marks=needs_compilers),
                                    pytest.param("accepted/java_main", marks=needs_compilers)])
def test_a_link_in_a_submission_folder_is_a_compile_error_not_a_leak(judge, problems, folder):
    """A submission that links to the package's answers: never read, never compiled (CE, named)."""
    submission = problems / "product" / "submissions" / folder
    os.symlink(problems / "product" / "data" / "secret" / "1.ans", submission / "answers.txt")
    code, out, err = judge("--problems", problems, "grade", submission, "--problem", "product", "--examples")
    assert code == 1 and "CE" in out and "answers.txt: a link, which the judge does not follow" in out, out + err
    assert "80779853376" not in out


def test_the_history_hashes_every_file_of_a_folder(tmp_path):
    folder = tmp_path / "py_main"
    shutil.copytree(PRODUCT / "submissions" / "accepted" / "py_main", folder)
    first = solution_hash(folder)
    (folder / "__pycache__").mkdir()  # what running it locally leaves: not the solution
    (folder / "__pycache__" / "arith.pyc").write_bytes(b"\0")
    assert solution_hash(folder) == first
    (folder / "arith.py").write_text((folder / "arith.py").read_text().replace("a * b", "b * a"))
    edited = solution_hash(folder)
    (folder / "arith.py").rename(folder / "arith2.py")
    renamed = solution_hash(folder)
    (folder / "extra.py").write_text("")
    assert len({first, edited, renamed, solution_hash(folder)}) == 4


def test_an_edit_of_a_helper_file_is_never_reused(judge, problems):
    """A recorded result stands for the folder only while every file of it is unchanged."""
    helper = problems / "product" / "submissions" / "accepted" / "py_main" / "arith.py"
    submission = helper.parent
    code, out, _ = judge("--problems", problems, "grade", submission, "--problem", "product")
    assert code == 0
    helper.write_text("def product(a, b):\n    return a + b\n")
    code, out, _ = judge("--problems", problems, "check", "product")
    assert code == 1 and re.search(r"MISMATCH \S*product/submissions/accepted/py_main: WA", out), out


def test_show_output_shows_a_python_programs_traceback(judge, problems, monkeypatch):
    monkeypatch.chdir(problems.parent)  # relative paths, as a user types them (the zygote's own folder is /)
    submission = Path("problems") / "product" / "submissions" / "run_time_error" / "py_throws"
    code, out, _ = judge("--problems", "problems", "grade", submission, "--problem", "product", "--show-output",
                         "--examples")
    shown = out.split("--- output of sample/1", 1)[1]
    assert code == 1 and "Traceback (most recent call last):" in shown, out
    assert 'raise ValueError(f"refusing to multiply {a} by {b}")' in shown  # the helper's line, read from memory
    assert "ValueError: refusing to multiply 3 by 4" in shown and "child.py" not in shown


@needs_compilers
def test_show_output_shows_a_java_programs_exception(judge, problems):
    """The issue: '(no failing test printed anything)' right after a Java exception."""
    submission = problems / "product" / "submissions" / "run_time_error" / "java_throws"
    code, out, _ = judge("--problems", problems, "grade", submission, "--problem", "product", "--show-output",
                         "--examples")
    shown = out.split("--- output of sample/1", 1)[1]
    assert code == 1 and 'Exception in thread "main" java.lang.IllegalStateException: refusing to multiply 3 by 4' \
        in shown, out
    assert "at Checked.product(Checked.java:3)" in shown and "tcjudge." not in shown


@pytest.mark.parametrize("solution, said", [
    (FIXTURE_SOLUTIONS / "runtime_error_exception.py", "ZeroDivisionError: integer division or modulo by zero"),
    pytest.param(TESTDATA / "languages" / "java" / "RuntimeErrorException.java",
                 "java.lang.ArrayIndexOutOfBoundsException", marks=needs_compilers),
])
def test_show_output_shows_a_methods_exception(judge, solution, said):
    code, out, _ = judge("--problems", FIXTURE_PROBLEMS, "grade", solution, "--show-output", "--first-failure")
    shown = out.split("--- output of", 1)[1]
    assert code == 1 and said in shown, out
    assert "child.py" not in shown and "tcjudge." not in shown and "no failing test" not in out


def test_a_cluster_ships_a_folder_as_the_judge_reads_it(tmp_path):
    """pack_folder (a problem's bundle) follows links; a solution's folder is packed by read_tree's rules."""
    from tcjudge.cluster.bundle import materialise, pack_solution

    folder = Path(shutil.copytree(PRODUCT / "submissions" / "accepted" / "py_main", tmp_path / "py_main"))
    bundle = pack_solution(folder, 1 << 20)
    shipped = materialise(bundle, "solutions", tmp_path / "cache")
    assert shipped.name == "py_main" and read_tree(shipped, 1 << 20) == read_tree(folder, 1 << 20)
    os.symlink(PRODUCT / "data" / "secret" / "1.ans", folder / "answers.py")
    with pytest.raises(SourceError, match="answers.py: a link"):
        pack_solution(folder, 1 << 20)


def test_included_files_are_the_languages_else_the_default_and_replace_the_submissions(problems):
    from tcjudge.languages import C
    from tcjudge.problems.loader import load_problem

    package = problems / "product"
    (package / "include" / "default").mkdir()
    (package / "include" / "default" / "common.h").write_text("// for every language without its own folder\n")
    problem = load_problem(package)
    assert PYTHON.included(problem) == package / "include" / "python3"
    assert C.included(problem) == package / "include" / "default"
    submission = package / "submissions" / "accepted" / "py_main"
    (submission / "kattio.py").write_text("raise SystemExit('the submission's own, replaced')\n")
    files = PYTHON.sources(submission, problem, 1 << 20, "main.py")
    assert files["kattio.py"] == (package / "include" / "python3" / "kattio.py").read_bytes()
    assert PYTHON.included(load_problem(FIXTURE_PROBLEMS / "adder")) is None  # our own problems have none


def test_a_folder_needs_its_problem_named(judge, problems):
    code, _, err = judge("--problems", problems, "grade", problems / "product" / "submissions" / "accepted" / "py_main")
    assert code == 2 and "name its problem with --problem SLUG" in err
