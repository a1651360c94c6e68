"""The languages of Kattis packages beyond C, C++, Java and Kotlin (issue 46): Rust, Go, Haskell, C#,
JavaScript, PyPy 3 and Ruby, each compiled (or checked) and run as problemtools' languages.yaml says,
confined and cached, under a sandbox profile of its own.

Each language has one AC, WA, TLE, MLE, RE and CE program of ours under
testdata/stdin/languages/<language>/ (its verdict in an `expect:` line), graded on the standard-input
problem `add` (one sum is 2**31, time limit 1 s, memory limit 256 MiB) through the real judge, one pool
run per language as `check` would; a language whose toolchain is not installed is skipped, saying so.
"""

from __future__ import annotations

import errno
import functools
import re
from pathlib import Path

import pytest

from tcjudge import languages
from tcjudge.engine.pool import Pool, SolutionRun
from tcjudge.engine.sandbox import _seccomp
from tcjudge.problems.loader import load_problem
from tcjudge.verdicts import Verdict

from .conftest import TESTDATA

FIXTURES = TESTDATA / "stdin" / "languages"
ADD = TESTDATA / "stdin" / "problems" / "add"
EXPECT = re.compile(r"expect: (\w+)")
LANGUAGES = {"rust": "RUST", "go": "GO", "haskell": "HASKELL", "csharp": "CSHARP", "javascript": "JAVASCRIPT",
             "pypy": "PYPY", "ruby": "RUBY"}
PROGRAMS = [(name, path) for name in LANGUAGES for path in sorted((FIXTURES / name).iterdir())]
# what each compile error says: the contestant's file and line, as the compiler wrote them
COMPILE_MESSAGES = {"rust": "compile_error_types.rs:3", "go": "compile_error_unused.go:7",
                    "haskell": "compile_error_types.hs:3", "csharp": "compile_error_types.cs(4,",
                    "javascript": "compile_error_syntax.js:3", "pypy": 'compile_error_syntax.py", line 3',
                    "ruby": "compile_error_syntax.rb:3"}


def _language(name: str) -> languages.Language:
    language = getattr(languages, LANGUAGES[name])
    if language.toolchain() is None:
        pytest.skip(language.missing_message())
    return language


@functools.cache
def _graded(name: str) -> dict:
    problem = load_problem(ADD)
    paths = sorted((FIXTURES / name).iterdir())
    with Pool(2) as pool:
        results = pool.grade([SolutionRun(problem, path, problem.tests, stop_on_failure=True) for path in paths])
    return {result.solution.name: result for result in results}


@pytest.mark.parametrize("name, path", PROGRAMS, ids=[f"{name}-{path.stem}" for name, path in PROGRAMS])
def test_each_program_gets_its_verdict(name, path):
    language = _language(name)
    assert languages.for_path(path) is language
    result = _graded(name)[path.name]
    failure = result.first_failure
    detail = result.compile_message or (failure.message if failure else "")
    assert str(result.verdict) == EXPECT.search(path.read_text()).group(1), detail


@pytest.mark.parametrize("name", LANGUAGES)
def test_every_verdict_is_exercised_in_each_language(name):
    expected = {EXPECT.search(path.read_text()).group(1) for path in (FIXTURES / name).iterdir()}
    assert expected == {"AC", "WA", "TLE", "MLE", "RE", "CE"}


@pytest.mark.parametrize("name", LANGUAGES)
def test_a_compile_error_names_the_file_and_line(name):
    _language(name)
    message = next(result.compile_message for file, result in _graded(name).items() if file.startswith("compile_error"))
    assert COMPILE_MESSAGES[name] in message, message
    assert "/builds/" not in message  # the file as the contestant named it, not the build folder's path


@pytest.mark.parametrize("name", LANGUAGES)
def test_running_out_of_memory_is_mle_not_the_runtimes_re(name):
    """MLE, not the RE of a runtime whose own allocation failed: the program's memory passes the limit in
    the kernel's figures first (its data share, data_extra_mib), or, in Haskell, the RTS says that its
    heap reached -M, the memory limit (our OutOfHeapHook, on the result channel)."""
    _language(name)
    result = next(result for file, result in _graded(name).items() if file.startswith("memory_limit"))
    assert result.verdict is Verdict.MLE
    said = result.first_failure.message
    if name == "haskell":
        assert said == "MemoryError: the memory limit was reached", said
    else:
        assert said.startswith("peak memory") and max(test.memory_mib for test in result.tests if test.verdict) > 256


@pytest.mark.parametrize("name", LANGUAGES)
def test_each_language_runs_under_its_own_sandbox_profile(name):
    from tcjudge.engine.sandbox import PROFILES

    language = getattr(languages, LANGUAGES[name])
    assert PROFILES[language.profile].exec  # its one execve (the binary or the runtime)
    jit = {"csharp", "javascript", "pypy"}  # runtimes that write the machine code they run
    assert PROFILES[language.profile].executable_memory == (name in jit)


@pytest.mark.parametrize("name", ["go", "javascript"])
def test_the_runtimes_with_most_threads_still_start_no_process(name):
    """Go (its own clone calls, raw syscalls) and node (libuv, V8's threads): a process, a socket (Go) and
    executable memory of its own making (Go) are refused; each program exits 3 when they all were."""
    _language(name)
    result = next(result for file, result in _graded(name).items() if file.startswith("runtime_error_sandbox"))
    assert result.first_failure.message == "the program exited with status 3"


def test_a_csharp_program_reads_proc_but_no_other_process_there():
    """mono needs /proc (its main thread's stack, from /proc/self/maps), so /proc is readable to C#; the
    zygote's environ, maps and mem need the ptrace check, which Landlock refuses outside the test."""
    _language("csharp")
    result = _graded("csharp")["runtime_error_proc.cs"]
    assert result.first_failure.message == "the program exited with status 3"


@pytest.mark.parametrize("arch", list(_seccomp.SYSCALLS))
def test_only_the_mono_profile_takes_a_scheduling_policy_as_set(arch):
    """Mono sets its finalizer thread's policy and, refused, prints a warning on standard output (into the
    answer: every C# program was WA). Under its profile the call succeeds and changes nothing; under
    every other, it is refused as before."""
    from tcjudge.engine.sandbox import PROFILES

    from .test_sandbox_layers import bpf_run

    audit, numbers = _seccomp.AUDIT_ARCH[arch], _seccomp.SYSCALLS[arch]
    for profile in PROFILES.values():
        program = _seccomp.build_program(arch, profile)
        for call in ("sched_setscheduler", "sched_setparam"):
            said = bpf_run(program, audit, numbers[call], (1234, 0, 0))
            assert said == _seccomp.errno_action(0 if profile.name == "mono" else errno.EPERM), (profile.name, call)
        assert bpf_run(program, audit, numbers["sched_setaffinity"], (1234, 8, 0)) == _seccomp.errno_action(errno.EPERM)


def test_doctor_lists_each_language_with_its_version():
    rows = {status.language.name: status for status in languages.statuses()}
    for name, attribute in LANGUAGES.items():
        language = getattr(languages, attribute)
        status = rows[language.name]
        toolchain = language.toolchain()
        assert status.detail.startswith(toolchain.version if toolchain else f"{language.title} is unavailable")


def test_judge_serve_offers_every_language_an_extension_picks():
    from tcjudge.serve.contest import LANGUAGE_IDS

    for name in LANGUAGES:
        language = getattr(languages, LANGUAGES[name])
        if language.extensions:
            assert LANGUAGE_IDS[language.kattis_code] == language.extensions


def test_a_missing_runtime_is_one_line(judge, monkeypatch, tmp_path):
    """A Rust file where rustc is not installed: one line, exit status 2, as for every compiler."""
    from tcjudge.languages import programs

    monkeypatch.setitem(programs._FOUND, "rust", None)
    code, _out, err = judge("--problems", ADD.parent, "grade", FIXTURES / "rust" / "accepted.rs", "--problem", "add")
    assert code == 2
    assert "Rust is unavailable: rustc was not found on PATH (Debian/Ubuntu: apt install rustc)" in err
    assert "Traceback" not in err


def test_a_pypy3_line_picks_pypy_and_other_python_files_stay_cpython(tmp_path):
    for first, expected in (("#!/usr/bin/env pypy3", "PYPY"), ("#!/usr/bin/pypy3", "PYPY"),
                            ("#!/usr/bin/env python3", "PYTHON"), ("", "PYTHON"), ("#!/usr/bin/env pypy", "PYTHON")):
        path = tmp_path / "x.py"
        path.write_text(f"{first}\nprint(1)\n")
        assert languages.for_path(path) is getattr(languages, expected), first
    assert languages.PYTHON.unsupported(path) is not None  # `pypy` alone is PyPy's Python 2
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "helper.py").write_text("X = 1\n")
    (folder / "main.py").write_text("#!/usr/bin/env pypy3\nimport helper\n")
    assert languages.for_path(folder) is languages.PYPY


def test_a_pypy_program_imports_the_files_beside_it(tmp_path):
    _language("pypy")
    folder = tmp_path / "sum"
    folder.mkdir()
    (folder / "adding.py").write_text("def add(a, b):\n    return a + b\n")
    (folder / "main.py").write_text(
        "#!/usr/bin/env pypy3\nimport sys\nfrom adding import add\n"
        "n = list(map(int, sys.stdin.read().split()))\n"
        "print('\\n'.join(str(add(n[1 + 2 * i], n[2 + 2 * i])) for i in range(n[0])))\n")
    problem = load_problem(ADD)
    with Pool(1) as pool:
        [result] = pool.grade([SolutionRun(problem, folder, problem.tests, stop_on_failure=True)])
    assert result.verdict is Verdict.AC, result.compile_message or result.first_failure


@pytest.mark.parametrize("pypy_installed", [True, False])
def test_a_packages_python_runs_on_pypy_where_installed_else_on_cpython(monkeypatch, pypy_installed):
    """problemtools and Kattis run a package's Python 3 on PyPy 3 (docs/kattis.md says why); where pypy3 is
    missing it runs on CPython in the zygote, as before. Our own problems' Python is CPython either way."""
    from tcjudge.languages import programs

    if pypy_installed:
        _language("pypy")
    else:
        monkeypatch.setitem(programs._FOUND, "pypy", None)
    package = load_problem(TESTDATA / "kattis" / "product")
    runs = [SolutionRun(package, package.path / "submissions" / "accepted" / name, package.tests, stop_on_failure=True)
            for name in ("py_main", "single_include.py")]
    own = load_problem(ADD)
    runs.append(SolutionRun(own, TESTDATA / "stdin" / "solutions" / "add.py", own.tests, stop_on_failure=True))
    with Pool(2) as pool:
        results = pool.grade(runs)
    assert [str(result.verdict) for result in results] == ["AC", "AC", "AC"], [r.first_failure for r in results]
    assert [run.program is not None for run in runs] == [pypy_installed, pypy_installed, False]
    assert ("PyPy" in languages.PYTHON.machine_version(own_format=False)) == pypy_installed  # the history's reuse key
    assert "PyPy" not in languages.PYTHON.machine_version(own_format=True)  # PyPy never grades our own problems
