"""C++ and Java solutions: verdicts, fresh state, the type mapping both ways, compiling rules.

Fixtures under testdata/languages/{cpp,java} declare their verdict in a `// expect: X` line and are
graded on the fixture problem `adder` in one pool run per language, as `check` would. The type
mapping is checked end to end: for every TopCoder type, an identity method is graded with edge
values (32-bit bounds, empty arrays, doubles), so the value crosses to the solution and back.
Tests needing a compiler are skipped, with the reason, where it is not installed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

import pytest

from tcjudge.engine.pool import Pool, SolutionRun
from tcjudge.engine.sandbox import _landlock
from tcjudge.languages import CPP, JAVA, PYTHON, CompileError, for_path
from tcjudge.languages.base import code_only
from tcjudge.problems.checkers import Checker
from tcjudge.problems.format import Parameter, Problem
from tcjudge.problems.loader import load_problem
from tcjudge.problems.method import METHOD
from tcjudge.problems.format import TestCase as Case  # (not collected by pytest)
from tcjudge.problems.tctypes import SCALARS, TCType
from tcjudge.verdicts import Verdict

from .conftest import FIXTURE_PROBLEMS, ROOT, TESTDATA, nobody_cannot_read_checkout

FIXTURES = TESTDATA / "languages"
EXPECT = re.compile(r"^// expect: (\w+)", re.MULTILINE)
needs_gxx = pytest.mark.skipif(CPP.toolchain() is None, reason=CPP.missing_message())
needs_java = pytest.mark.skipif(JAVA.toolchain() is None, reason=JAVA.missing_message())


def _grade(problem: Problem, paths: list[Path]) -> dict[str, object]:
    runs = [SolutionRun(problem, path, problem.tests, stop_on_failure=True) for path in paths]
    with Pool(2) as pool:
        return {result.solution.name: result for result in pool.grade(runs)}


@pytest.fixture(scope="module")
def adder() -> Problem:
    return load_problem(FIXTURE_PROBLEMS / "adder")


@pytest.fixture(scope="module")
def graded_cpp(adder):
    return _grade(adder, sorted((FIXTURES / "cpp").glob("*.cpp")))


@pytest.fixture(scope="module")
def graded_java(adder):
    return _grade(adder, sorted((FIXTURES / "java").glob("*.java")))


def _check(result, path: Path) -> None:
    failure = result.first_failure
    detail = result.compile_message or (failure.message if failure else "")
    assert str(result.verdict) == EXPECT.search(path.read_text()).group(1), detail


CPP_FIXTURES = sorted((FIXTURES / "cpp").glob("*.cpp"))
JAVA_FIXTURES = sorted((FIXTURES / "java").glob("*.java"))


@needs_gxx
@pytest.mark.parametrize("path", CPP_FIXTURES, ids=[p.stem for p in CPP_FIXTURES])
def test_cpp_fixture_gets_its_verdict(graded_cpp, path):
    _check(graded_cpp[path.name], path)


@needs_java
@pytest.mark.parametrize("path", JAVA_FIXTURES, ids=[p.stem for p in JAVA_FIXTURES])
def test_java_fixture_gets_its_verdict(graded_java, path):
    _check(graded_java[path.name], path)


@pytest.mark.parametrize("paths", [CPP_FIXTURES, JAVA_FIXTURES], ids=["cpp", "java"])
def test_every_verdict_is_exercised_in_each_language(paths):
    assert {EXPECT.search(p.read_text()).group(1) for p in paths} == {str(v) for v in Verdict} - {"IE"}


@needs_gxx
def test_cpp_messages_say_what_went_wrong(graded_cpp):
    syntax = graded_cpp["compile_error_syntax.cpp"].compile_message
    assert "compile_error_syntax.cpp:9" in syntax and "error" in syntax  # the contestant's file and line
    signature = graded_cpp["compile_error_signature.cpp"].compile_message
    assert "Adder must have a public method long long add(vector<int> values, int factor)" in signature
    # a stack overflow only on the runtime's evidence: the stack at its limit, not a null pointer or a stale iterator
    assert graded_cpp["runtime_error_signal.cpp"].first_failure.message == "killed by SIGSEGV"
    assert graded_cpp["runtime_error_invalid_iterator.cpp"].first_failure.message == "killed by SIGSEGV"
    assert (graded_cpp["runtime_error_stack_overflow.cpp"].first_failure.message
            == "killed by SIGSEGV (stack overflow: the stack was at its limit)")
    assert "std::out_of_range" in graded_cpp["runtime_error_exception.cpp"].first_failure.message
    accepted = graded_cpp["accepted.cpp"].tests[0]
    assert accepted.cpu_ms > 0 and accepted.memory_mib > 0  # measured by the kernel


@needs_java
def test_java_messages_say_what_went_wrong(graded_java):
    assert "CompileError.java:4" in graded_java["CompileError.java"].compile_message
    assert "has no public method long add(int[], int)" in graded_java["CompileErrorSignature.java"].compile_message
    assert "ArrayIndexOutOfBoundsException" in graded_java["RuntimeErrorException.java"].first_failure.message
    assert "killed by SIG" in graded_java["RuntimeErrorSignal.java"].first_failure.message
    assert "memory" in graded_java["MemoryLimitArray.java"].first_failure.message


@needs_gxx
def test_archive_rule_falls_back_to_gnu14_only_when_gnu17_fails(adder):
    assert CPP.build(FIXTURES / "cpp" / "accepted_own_main_gnu14.cpp", adder, 1 << 20).detail["standard"] == "gnu++14"
    assert CPP.build(FIXTURES / "cpp" / "accepted.cpp", adder, 1 << 20).detail["standard"] == "gnu++17"


def test_a_packages_standard_is_the_newest_the_compiler_takes(tmp_path):
    """issue 46: problemtools compiles a package's C++ with -std=gnu++23, which a g++ before 11 spells
    otherwise or does not know: the first of the spellings that the installed g++ takes is used."""
    from tcjudge.languages.cpp import newest_standard

    gxx = tmp_path / "g++"  # takes every standard but gnu++23, as g++ 11 does
    gxx.write_text('#!/bin/sh\ncase "$1" in -std=gnu++23) echo "g++: error: unrecognized option $1" >&2; exit 1;; esac\n'
                   'echo \'# 0 "/dev/null"\'\n')
    gxx.chmod(0o755)
    assert newest_standard(str(gxx)) == "gnu++2b"
    (tmp_path / "nothing").write_text("#!/bin/sh\nexit 1\n")
    (tmp_path / "nothing").chmod(0o755)
    assert newest_standard(str(tmp_path / "nothing")) == "gnu++17"


@needs_gxx
@pytest.mark.skipif(_landlock.abi_version()[0] <= 0, reason="no Landlock on this kernel: the compiler is not confined")
def test_compiler_cannot_read_the_project(adder, tmp_path):
    """An #include of an expected output is a compile error that does not quote it: the compiler
    reads only system folders and its build folder."""
    secret = FIXTURE_PROBLEMS / "adder" / "tests" / "more.yaml"
    path = tmp_path / "Leak.cpp"
    path.write_text(f'#include "{secret}"\nclass Adder {{ public: long long add(vector<int> v, int f) {{ return 0; }} }};\n')
    with pytest.raises(CompileError) as caught:
        CPP.program(path, adder, 1 << 20)
    assert "3000000000000" not in str(caught.value)
    assert "Permission denied" in str(caught.value) or "No such file" in str(caught.value)


# -- the type mapping, both ways ---------------------------------------------------------------------

EDGES = {
    "int": [0, 1, -1, 2**31 - 1, -(2**31)],
    "long": [0, 2**63 - 1, -(2**63), 2**31, -(2**31) - 1],
    "double": [0.0, -0.0, 0.1, 1e-300, 1.7976931348623157e308, -2.5, 123456789.125],
    "String": ["", "a", 'quote " backslash \\ tab \t newline \n', "x" * 1000, "\u00e9\u4e2d\U0001f600"],
    "boolean": [True, False],
}


def _values(t: TCType) -> list:
    if t.dims == 0:
        return EDGES[t.base]
    inner = _values(t.element)
    return [[], inner[:1], inner, [inner[0]] * 3] if t.dims == 1 else [[], [[]], [inner[1], [], inner[2]]]


def _echo_problem(t: TCType) -> Problem:
    method = f"echo{t.base.capitalize()}{t.dims}"
    tests = [Case(f"value-{k}", (value,), value, "generated", k + 1) for k, value in enumerate(_values(t))]
    return Problem(f"echo-{t}", FIXTURES, "Echo", "test fixture", "Echo", method, [Parameter("value", t)], t,
                   time_limit=2, memory_limit=256, tests=tests, check=Checker(t), kind=METHOD)


TYPES = [TCType(base, dims) for base in SCALARS for dims in range(3)]
CPP_TYPES = {"int": "int", "long": "long long", "double": "double", "String": "string", "boolean": "bool"}
JAVA_TYPES = {"int": "int", "long": "long", "double": "double", "String": "String", "boolean": "boolean"}


def _echo_source(language: str, folder: Path) -> Path:
    """One class with an identity method per TopCoder type (C++ one file per type: the generated
    entry point names one method; Java one file: the runtime finds the method by reflection)."""
    if language == "java":
        methods = "".join(f"    public {JAVA_TYPES[t.base]}{'[]' * t.dims} {_echo_problem(t).method}"
                          f"({JAVA_TYPES[t.base]}{'[]' * t.dims} v) {{ return v; }}\n" for t in TYPES)
        path = folder / "Echo.java"
        path.write_text(f"public class Echo {{\n{methods}}}\n")
        return path
    methods = ""
    for t in TYPES:
        name = CPP_TYPES[t.base]
        for _ in range(t.dims):
            name = f"vector<{name}>"
        methods += f"    {name} {_echo_problem(t).method}({name} v) {{ return v; }}\n"
    path = folder / "echo.cpp"
    path.write_text(f"#include <string>\n#include <vector>\nusing namespace std;\nclass Echo {{\npublic:\n{methods}}};\n")
    return path


def _echo_all(language: str, folder: Path) -> dict[str, object]:
    path = _echo_source(language, folder)
    runs = [SolutionRun(_echo_problem(t), path, _echo_problem(t).tests, stop_on_failure=False) for t in TYPES]
    with Pool(2) as pool:
        return {str(TYPES[k]): result for k, result in enumerate(pool.grade(runs))}


@needs_java
def test_java_type_mapping_round_trips_every_type(tmp_path):
    for name, result in _echo_all("java", tmp_path).items():
        assert result.verdict is Verdict.AC, (name, result.compile_message, result.first_failure)
        assert result.passed == len(result.tests) >= 2


@needs_gxx
def test_cpp_type_mapping_round_trips_every_type(tmp_path):
    for name, result in _echo_all("cpp", tmp_path).items():
        assert result.verdict is Verdict.AC, (name, result.compile_message, result.first_failure)
        assert result.passed == len(result.tests) >= 2


# -- finding the class without compiling -------------------------------------------------------------

def test_language_comes_from_the_extension():
    assert [for_path(Path(name)) for name in ("a.py", "A.cpp", "A.cc", "A.java")] == [PYTHON, CPP, CPP, JAVA]


def test_classes_are_found_in_code_not_in_comments_or_strings():
    source = '// class Fake {\n/* class Other { */ const char* s = "class Quoted {";\nclass Real : public Base {\n};\n'
    assert CPP.classes(source) == {"Real"}
    assert CPP.classes("struct Forward;\nstruct Solver final { };") == {"Solver"}
    assert JAVA.classes('// class A\nString s = "class B";\npublic class EllysCheckers {\n  class Inner {} }') == \
        {"EllysCheckers", "Inner"}


def test_class_scan_ends_on_unterminated_comments_and_literals():
    # each opener is scanned once: a lazy regex would take hours on this (and never end here)
    assert code_only("class A {};" + "/* " * 200_000) == "class A {};"
    assert CPP.classes('class A {};\n"' + "\\" * 100_000) == {"A"}


def test_missing_compiler_is_one_clear_line(judge, monkeypatch):
    monkeypatch.setattr(type(CPP), "toolchain", lambda self: None)
    code, _out, err = judge("--problems", FIXTURE_PROBLEMS, "grade", FIXTURES / "cpp" / "accepted.cpp")
    assert code == 2
    assert "g++ was not found" in err and "Traceback" not in err


def test_check_leaves_out_languages_whose_compiler_is_missing(judge, monkeypatch, tmp_path):
    """Without g++ or a JDK, `check` grades what it can and says once per language what it left out:
    neither IE nor a mismatch. `grade FILE.cpp` says it in one line, exit 2."""
    folder = tmp_path / "solutions" / "adder" / "accepted"
    folder.mkdir(parents=True)
    for source in (TESTDATA / "solutions" / "accepted.py", FIXTURES / "cpp" / "accepted.cpp",
                   FIXTURES / "java" / "Accepted.java"):
        (folder / source.name).write_bytes(source.read_bytes())
    monkeypatch.setattr(CPP, "toolchain", lambda: None)
    monkeypatch.setattr(JAVA, "toolchain", lambda: None)
    code, out, err = judge("--problems", FIXTURE_PROBLEMS, "--solutions", tmp_path / "solutions", "check")
    assert code == 0, out + err
    assert "1 of 1 solution got their expected verdict" in out
    notes = [line for line in err.splitlines() if "not graded" in line]
    assert len(notes) == 2 and any("1 stored C++ solution(s) not graded: " in line for line in notes), err
    code, out, err = judge("--problems", FIXTURE_PROBLEMS, "grade", folder / "accepted.cpp")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "g++" in err


@pytest.mark.parametrize("said", ["g++: fatal error: Killed signal terminated program cc1plus",
                                  "g++: fatal error: CPU time limit exceeded signal terminated program cc1plus",
                                  "cc1plus: out of memory allocating 65536 bytes"])
def test_a_compile_whose_helper_was_stopped_at_a_limit_is_never_retried(tmp_path, said):
    """The g++ driver outlives a cc1plus killed at its limits and exits 4; before, that read as a
    compile error, and the template bomb was compiled again under gnu++14 (61 s in all)."""
    from tcjudge.languages.build import SYSTEM_READABLE, run_confined

    status, message = run_confined(["/bin/sh", "-c", f"echo '{said}'; exit 4"], tmp_path, list(SYSTEM_READABLE),
                                   {"PATH": "/usr/bin:/bin"})
    assert status is None and said in message and "stopped at its limits" in message
    status, _ = run_confined(["/bin/sh", "-c", "echo 'x.cpp:1: error: expected'; exit 1"], tmp_path,
                             list(SYSTEM_READABLE), {"PATH": "/usr/bin:/bin"})
    assert status == 1  # a real compile error is still one (and gnu++14 is still tried after it)


@pytest.mark.parametrize("tamper", ["planted", "writable"])
def test_a_cached_build_is_used_only_while_it_is_what_the_judge_built(tmp_path, monkeypatch, tamper):
    """issue 22: a build cache is trusted only when owned by this user, writable by no one else, and
    its files hash as recorded. Before, a correct binary planted under a wrong file's key gave AC."""
    if not shutil.which("g++"):
        pytest.skip("g++ is not installed here")
    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path / "cache"))
    problem = load_problem(ROOT / "problems" / "roxor")
    wrong = ROOT / "solutions" / "roxor" / "wrong_answer" / "no_equal_targets.cpp"
    right = ROOT / "solutions" / "roxor" / "accepted" / "odious_grundy.cpp"
    wrong_build = Path(CPP.program(wrong, problem, 1 << 18)["argv"][0])
    right_build = Path(CPP.program(right, problem, 1 << 18)["argv"][0])
    if tamper == "planted":
        wrong_build.chmod(0o755)
        shutil.copyfile(right_build, wrong_build)  # the right binary under the wrong file's key
    else:
        wrong_build.chmod(0o777)  # anyone could have put anything there
    runs = [SolutionRun(problem, wrong, problem.tests[:3], stop_on_failure=True)]
    with Pool(1) as pool:
        result = pool.grade(runs)[0]
    assert result.verdict is Verdict.WA, result.verdict
    assert wrong_build.stat().st_mode & 0o022 == 0


def _sized_build(mib: float):
    def build(folder: Path):
        with open(folder / "program", "wb") as handle:
            handle.truncate(int(mib * (1 << 20)))  # (sparse: sizes are what the files say)
        return True, "", {}
    return build


def test_a_build_over_the_program_limit_is_a_compile_error_and_not_kept(tmp_path, monkeypatch):
    """issue 22: a 1 KiB C++ file with an initialised 250 MiB array left 252 MiB in the cache per
    submission (testdata/adversarial/solutions/cpp_huge_binary.cpp, graded as root and uid 65534)."""
    from tcjudge.languages import build

    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path))
    outcome = build.cached_build(["huge"], _sized_build(build.PROGRAM_LIMIT_MIB + 1))
    assert not outcome.ok and f"over the {build.PROGRAM_LIMIT_MIB} MiB limit" in outcome.message
    assert [p.name for p in outcome.folder.iterdir()] == ["outcome.json"]
    assert build.cached_build(["huge"], _sized_build(0)) == outcome  # a failure cached as any other
    assert build.cached_build(["fits"], _sized_build(build.PROGRAM_LIMIT_MIB - 1)).ok


def test_the_build_cache_keeps_under_its_cap_by_removing_the_least_recently_used(tmp_path, monkeypatch):
    """issue 22: nothing ever removed a build. Past the cap, the builds used least recently go first;
    one used in the last IN_USE_SECONDS (a grading may be running it) only past twice the cap."""
    from tcjudge.languages import build

    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path))
    monkeypatch.setattr(build, "CACHE_LIMIT_MIB", 3)
    hours_ago = {}
    for age, name in enumerate(["c", "b", "a"], start=1):  # 0.9 MiB each; a: used 3 hours ago, b: 2, c: 1
        folder = build.cached_build([name], _sized_build(0.9)).folder
        hours_ago[name] = folder
        os.utime(folder, (time.time() - age * 3600,) * 2)
    assert build.cached_build(["a"], _sized_build(0)).ok  # a used now (found, not built): b is the least recent
    build.cached_build(["d"], _sized_build(0.9))  # 3.6 MiB: one must go
    assert {name for name, folder in hours_ago.items() if folder.exists()} == {"a", "c"}
    build.cached_build(["e"], _sized_build(0.9))  # 3.6 MiB again: c goes, a (used now) stays
    assert not hours_ago["c"].exists() and hours_ago["a"].exists()
    build.cached_build(["f"], _sized_build(1.5))  # 4.2 MiB, all used in the last minutes: all stay
    assert hours_ago["a"].exists()
    build.cached_build(["g"], _sized_build(2))  # 6.2 MiB, past twice the cap: the least recent go
    left = {p.name for shelf in (tmp_path / "builds").iterdir() for p in shelf.iterdir()}
    assert not hours_ago["a"].exists() and len(left) == 4 and build._size(tmp_path / "builds")[0] <= 6 << 20


# -- the compiler never reads the judge's folders, wherever they are ---------------------------------

LEAK = FIXTURES / "leaks" / "include_hidden_tests.cpp"
needs_landlock = pytest.mark.skipif(_landlock.abi_version()[0] <= 0, reason="no Landlock on this kernel: the compiler "
                                                                            "is not confined")


def _as_user(variant: str, cache: Path, work):
    """work() in a forked process, as this user or as uid 65534, with its own build cache; what it
    returned (JSON), or the traceback it raised."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.close(read_fd)
            if variant == "nobody":
                os.setgroups([])
                os.setgid(65534)
                os.setuid(65534)
            os.environ["JUDGE_CACHE"] = str(cache)
            if not os.access(sys.executable, os.X_OK):  # root's pyenv: the system's Python launches the compiler
                sys.executable = shutil.which("python3", path="/usr/bin:/bin") or sys.executable
            answer = {"value": work()}
        except BaseException:  # noqa: BLE001 - everything goes back to the test
            answer = {"error": traceback.format_exc()}
        with os.fdopen(write_fd, "w") as out:
            json.dump(answer, out)
        os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd) as source:
        answer = json.loads(source.read() or '{"error": "the child wrote nothing"}')
    os.waitpid(pid, 0)
    assert "error" not in answer, answer["error"]
    return answer["value"]


def _project_under(system: Path, variant: str) -> Path:
    """A fresh project folder beneath a system folder, or a skip saying why this run cannot make one
    (or cannot drop to uid 65534 for the "nobody" variant)."""
    if not os.access(system, os.W_OK):
        pytest.skip(f"cannot make a project under {system} as uid {os.getuid()}")
    if variant == "nobody" and os.geteuid() != 0:
        pytest.skip("dropping to uid 65534 needs root; this run is already unprivileged (the 'self' variant)")
    if variant == "nobody" and nobody_cannot_read_checkout():
        pytest.skip(nobody_cannot_read_checkout())
    return Path(tempfile.mkdtemp(prefix="tcjudge-test-project-", dir=system))


@needs_gxx
@needs_landlock
@pytest.mark.parametrize("variant", ["self", "nobody"])
def test_the_compiler_cannot_read_a_project_under_a_system_folder(variant):
    """issue 22: with the project under /usr, all of which the compiler may read, an #include of a
    hidden test file was allowed and the CE message quoted it."""
    project = _project_under(Path("/usr/local"), variant)
    try:
        project.chmod(0o755)
        shutil.copytree(FIXTURE_PROBLEMS / "adder", project / "problems" / "adder")
        secret = project / "problems" / "adder" / "tests" / "more.yaml"
        (project / "incoming").mkdir(mode=0o755)
        solution = project / "incoming" / LEAK.name
        solution.write_text(LEAK.read_text().replace("HIDDEN_TESTS", str(secret)))
        shutil.copy(FIXTURES / "cpp" / "accepted.cpp", project / "incoming" / "accepted.cpp")
        for path in [project, *project.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        (project / "cache").mkdir()
        if variant == "nobody":
            os.chown(project / "cache", 65534, 65534)
        problem = load_problem(project / "problems" / "adder")

        def compile_both():
            CPP.program(project / "incoming" / "accepted.cpp", problem, 1 << 20)  # the rest of /usr is there
            try:
                CPP.program(solution, problem, 1 << 20)
            except CompileError as err:
                return str(err)
            return "compiled"

        message = _as_user(variant, project / "cache", compile_both)
    finally:
        shutil.rmtree(project, ignore_errors=True)
    assert "3000000000000" not in message and "name: big" not in message, message
    assert "Permission denied" in message and "more.yaml" in message, message


READS_HIDDEN_TESTS = """\
class Adder:
    def add(self, values, factor):
        try:
            with open(HIDDEN) as handle:
                leaked = handle.read()
        except OSError:
            return sum(values) * factor
        raise RuntimeError("LEAK: " + leaked[:40])
"""


@needs_landlock
@pytest.mark.parametrize("variant", ["self", "nobody"])
def test_a_test_cannot_read_a_project_under_a_folder_the_interpreter_reads(variant):
    """issue 22: a Python solution may read the interpreter's folders (/usr/local/lib among them); a
    project kept beneath one was readable by every test, hidden tests included. The zygote now
    grants such a folder minus the project's folders (the load request names them)."""
    project = _project_under(Path("/usr/local/lib"), variant)
    try:
        shutil.copytree(FIXTURE_PROBLEMS / "adder", project / "problems" / "adder")
        secret = project / "problems" / "adder" / "tests" / "more.yaml"
        (project / "incoming").mkdir()
        solution = project / "incoming" / "reads_hidden_tests.py"
        solution.write_text(READS_HIDDEN_TESTS.replace("HIDDEN", repr(str(secret))))
        for path in [project, *project.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        (project / "cache").mkdir(mode=0o777)
        problem = load_problem(project / "problems" / "adder")

        def grade():
            with Pool(1, python=sys.executable) as pool:  # (as nobody: an interpreter it can run)
                [result] = pool.grade([SolutionRun(problem, solution, problem.tests, True)])
            return [str(result.verdict), result.first_failure.message if result.first_failure else ""]

        verdict, message = _as_user(variant, project / "cache", grade)
    finally:
        shutil.rmtree(project, ignore_errors=True)
    assert (verdict, message) == ("AC", ""), message


def test_landlock_grants_a_tree_minus_its_holes(tmp_path):
    """The compiler's rules: a readable root holding a judge folder is granted as its entries, and the
    entry on the way to the hole the same way; links are resolved, so none leads into a hole."""
    root = tmp_path / "usr"
    for folder in ["bin", "lib/gcc", "local/share/judge/problems", "local/share/judge/docs", "local/lib"]:
        (root / folder).mkdir(parents=True)
    (root / "local" / "README").write_text("")
    (root / "lib" / "to-problems").symlink_to(root / "local" / "share" / "judge")
    (root / "lib" / "to-usr").symlink_to(root)  # a loop back above the hole
    hole = root / "local" / "share" / "judge" / "problems"
    granted = _landlock.beneath_except([str(root), str(root / "bin")], [str(hole)])
    real = Path(os.path.realpath(root))
    expected = [real / "bin", real / "lib", real / "local" / "README", real / "local" / "lib",
                real / "local" / "share" / "judge" / "docs"]
    assert sorted(granted) == sorted(str(p) for p in expected)
    assert not any(_landlock.covers(path, os.path.realpath(hole)) for path in granted)
    assert _landlock.beneath_except([str(hole / "..")], [str(root)]) == []  # a root beneath a hole: nothing


def test_the_registry_names_each_languages_own_extensions():
    # The registry holds them so that an extension is looked up without importing every language.
    from tcjudge import languages

    for module, name, extensions in languages.REGISTRY:
        language = getattr(languages, name)
        assert type(language).__module__ == f"tcjudge.languages.{module}"
        assert language.extensions == extensions, name
    assert [language.name for language in languages.every_language()] == [
        "python", "cpp", "java", "c", "kotlin", "rust", "go", "haskell", "csharp", "javascript", "pypy", "ruby"]


def test_a_compile_that_fails_on_a_nearly_full_disk_is_an_internal_error_and_not_kept(tmp_path, monkeypatch):
    """Breaker 50a: with the build cache on a full disk, every C++ submission's link failed ('collect2: error:
    ld returned 1 exit status'), was CE, and the CE was kept: still CE once the disk had room again."""
    from tcjudge.languages import build

    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path))
    monkeypatch.setattr(build, "_free_bytes", lambda folder: 1 << 20)
    with pytest.raises(build.BuildFault, match="nearly full"):
        build.cached_build(["full"], lambda folder: (False, "collect2: error: ld returned 1 exit status", {}))
    monkeypatch.setattr(build, "_free_bytes", lambda folder: 1 << 40)
    assert build.cached_build(["full"], lambda folder: (True, "", {})).ok  # (nothing was kept: built again)


def test_a_build_cache_that_cannot_be_written_is_an_internal_error_for_the_solution(tmp_path, monkeypatch):
    """Breaker 50a: an OSError of the cache (no space, a HOME the user cannot write) ended the pool's build
    thread with a traceback, and the Java or C++ source was then loaded as Python: CE 'SyntaxError', or IE,
    by -j. Now IE for that solution, with the error, at any -j (here: a cache folder under a file)."""
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path / "file" / "cache"))  # (under a file: never a folder)
    problem = load_problem(FIXTURE_PROBLEMS / "adder")
    cpp_solution = next(iter(sorted((FIXTURES / "cpp").glob("*.cpp"))))
    for jobs in (1, 2):
        with Pool(jobs) as pool:
            results = pool.grade([SolutionRun(problem, path, problem.tests, stop_on_failure=True)
                                  for path in (cpp_solution, cpp_solution)])
        for result in results:
            assert result.verdict is Verdict.IE and "Not a directory" in result.tests[0].message, result.tests[0].message


def test_the_build_just_made_is_never_evicted_by_its_own_eviction(tmp_path, monkeypatch):
    """Breaker 54c F4: a build over the cap (a precompiled header of 120 MiB under a small cap) was removed
    by the eviction its own making ran, and cached_build returned None: an AttributeError in the thread
    that compiled, after which the C++ file was loaded as Python."""
    from tcjudge.languages import build

    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path))
    monkeypatch.setattr(build, "CACHE_LIMIT_MIB", 1)
    outcome = build.cached_build(["big"], _sized_build(3), limit_mib=8)
    assert outcome.ok and (outcome.folder / "program").is_file()


def test_a_build_that_fails_in_the_judge_is_the_runs_ie_not_a_python_load(tmp_path, monkeypatch):
    """Breaker 54c F4: an exception the build did not expect ended the thread that built the run, left it
    marked built, and the worker loaded the C++ file as Python (a SyntaxError for its verdict)."""
    if not shutil.which("g++"):
        pytest.skip("g++ is not installed here")
    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path / "cache"))
    from tcjudge.languages.cpp import Cpp

    def broken(self, path, problem, source_limit):
        raise AttributeError("'NoneType' object has no attribute 'ok'")

    monkeypatch.setattr(Cpp, "program", broken)
    problem = load_problem(ROOT / "problems" / "roxor")
    solution = ROOT / "solutions" / "roxor" / "accepted" / "odious_grundy.cpp"
    other = ROOT / "solutions" / "roxor" / "wrong_answer" / "no_equal_targets.cpp"
    with Pool(1) as pool:  # (two runs: built ahead, on a builder thread)
        results = pool.grade([SolutionRun(problem, file, problem.tests[:2], stop_on_failure=True)
                              for file in (solution, other)])
    for result in results:
        assert result.verdict is Verdict.IE and "AttributeError" in (result.internal_error or ""), result
