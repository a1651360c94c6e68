"""Standard-input problems: the program gets the test's input on descriptor 0, its standard output is
the answer, judged by the token checker (Kattis default-validator flags) or the problem's own
output validator. Programs are graded in one pool run per group, as `check` would."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tcjudge.engine.pool import Pool, SolutionRun
from tcjudge.problems.loader import load_problem
from tcjudge.problems.checkers.tokens import TokenRules, compare_output
from tcjudge.verdicts import Verdict

from .conftest import TESTDATA

STDIN = TESTDATA / "stdin"

# name -> (program, expected verdict, a fragment of the first failure's message)
PROGRAMS = {
    "input_builtin": ("t = int(input())\nfor _ in range(t):\n    a, b = map(int, input().split())\n    print(a + b)\n",
                      "AC", ""),
    "buffer_read": ("import sys\nw = sys.stdin.buffer.read().split()\n"
                    "sys.stdout.write('\\n'.join(str(int(a) + int(b)) for a, b in zip(w[1::2], w[2::2])))\n",
                    "AC", ""),
    "open_fd_zero": ("data = open(0).read().split()\nprint(*(int(a) + int(b) for a, b in zip(data[1::2], data[2::2])))\n",
                     "AC", ""),
    "exit_zero_after_print": ("import sys\nw = sys.stdin.read().split()\n"
                              "print(*(int(a) + int(b) for a, b in zip(w[1::2], w[2::2])))\nsys.exit(0)\n", "AC", ""),
    "main_guard_and_thread": (textwrap.dedent("""\
        import sys, threading
        def main():
            w = sys.stdin.read().split()
            print(*(int(a) + int(b) for a, b in zip(w[1::2], w[2::2])))
        if __name__ == "__main__":
            threading.stack_size(1 << 24)
            threading.Thread(target=main).start()
        """), "AC", ""),
    "atexit_prints": ("import atexit, sys\nw = sys.stdin.read().split()\n"
                      "atexit.register(print, *(int(a) + int(b) for a, b in zip(w[1::2], w[2::2])))\n", "AC", ""),
    "closes_stdout": ("import sys\nw = sys.stdin.read().split()\n"
                      "print(*(int(a) + int(b) for a, b in zip(w[1::2], w[2::2])))\nsys.stdout.close()\n", "AC", ""),
    "exit_status_three": ("import sys\nsys.exit(3)\n", "RE", "exit(3)"),
    # issue 21: exit() and quit() are the site module's builtins, which `python3 program.py` has
    "ends_with_exit_builtin": ("import sys\nw = sys.stdin.read().split()\n"
                               "print(*(int(a) + int(b) for a, b in zip(w[1::2], w[2::2])))\nexit()\n", "AC", ""),
    "quit_with_status": ("quit(2)\n", "RE", "exit(2)"),
    "os_exit_unflushed": ("import os, sys\nsys.stdout.write('3\\n7\\n')\nos._exit(0)\n", "WA", "end of output"),
    "exception": ("x = int(input())\nprint(1 // (x - x))\n", "RE", "ZeroDivisionError"),
    "eof_error": ("while True:\n    input()\n", "RE", "EOFError"),
    "one_too_many": ("import sys\nw = sys.stdin.read().split()\n"
                     "print(*(int(a) + int(b) for a, b in zip(w[1::2], w[2::2])), 0)\n", "WA", "expected end of output"),
    "sleeps": ("import time\ntime.sleep(60)\n", "TLE", "idle for"),
    "spins": ("while True:\n    pass\n", "TLE", "limit"),
    # issue 22: a wrong answer, then a forged compile error on the result channel; before, graded CE
    # with the program's own message. CE comes from the judge's compile step alone.
    "forges_compile_error": ("import os\nprint(0)\nos.write(3, b'{\"kind\": \"compile_error\", \"message\": \"forged\"}')\n"
                             "os._exit(0)\n", "RE", ""),
}


def _write(folder: Path, programs: dict) -> dict[str, Path]:
    paths = {}
    for name, (source, *_rest) in programs.items():
        paths[name] = folder / f"{name}.py"
        paths[name].write_text(source)
    return paths


def _grade(problem, paths: dict[str, Path], tests=None, jobs=2) -> dict:
    runs = [SolutionRun(problem, path, tests or problem.tests, stop_on_failure=True) for path in paths.values()]
    with Pool(jobs) as pool:
        return {result.solution.stem: result for result in pool.grade(runs)}


@pytest.fixture(scope="module")
def add_results(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("programs")
    return _grade(load_problem(STDIN / "problems" / "add"), _write(folder, PROGRAMS))


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_gets_its_verdict(add_results, name):
    result = add_results[name]
    _, verdict, fragment = PROGRAMS[name]
    failure = result.first_failure
    message = result.compile_message or (failure.message if failure else "")
    assert str(result.verdict) == verdict, message
    assert fragment in message


def test_syntax_error_is_compile_error(tmp_path):
    path = tmp_path / "broken.py"
    path.write_text("print(\n")
    result = _grade(load_problem(STDIN / "problems" / "add"), {"broken": path})["broken"]
    assert result.verdict is Verdict.CE and "SyntaxError" in result.compile_message


def _big_problem(folder: Path, input_bytes: bytes, answer: bytes) -> Path:
    (folder / "tests").mkdir(parents=True)
    (folder / "problem.yaml").write_text("type: stdin\nname: Big\ntime_limit: 5\nmemory_limit: 512\n")
    (folder / "tests" / "big.in").write_bytes(input_bytes)
    (folder / "tests" / "big.ans").write_bytes(answer)
    return folder


def test_large_input_and_output_pass_through_whole(tmp_path):
    """12 MiB in, the same 12 MiB out (echo), and a program that never reads its big input."""
    lines = b"".join(b"%d %d\n" % (i, i * 7919 % 1000003) for i in range(1_000_000))
    assert len(lines) > 12 * 1024 * 1024
    problem = load_problem(_big_problem(tmp_path / "big", lines, lines))
    programs = {
        "echo": ("import sys\nsys.stdout.buffer.write(sys.stdin.buffer.read())\n",),
        "echo_by_line": ("import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n",),
        "ignores_input": ("print(1)\n",),
    }
    results = _grade(problem, _write(tmp_path, programs))
    assert results["echo"].verdict is Verdict.AC, results["echo"].first_failure
    assert results["echo_by_line"].verdict is Verdict.AC, results["echo_by_line"].first_failure
    assert results["ignores_input"].verdict is Verdict.WA
    assert "token 1 (answer line 1): expected '0', got '1'" == results["ignores_input"].first_failure.message


def test_output_over_the_cap_is_an_output_limit(tmp_path):
    problem = load_problem(_big_problem(tmp_path / "flood", b"1\n", b"1\n"))
    programs = {"flood": ("import sys\nchunk = b'1 ' * (1 << 20)\nfor _ in range(40):\n"
                          "    sys.stdout.buffer.write(chunk)\n",)}
    result = _grade(problem, _write(tmp_path, programs))["flood"]
    assert result.verdict is Verdict.WA
    assert result.first_failure.message.startswith("output limit exceeded: more than 64 MiB")


def test_float_tolerance_flag(tmp_path):
    problem = load_problem(STDIN / "problems" / "mean")
    programs = {
        "close": ("print(5 / 3 + 5e-7)\n",),
        "far": ("print(5 / 3 + 5e-5)\n",),
        "text": ("print('five thirds')\n",),
    }
    results = _grade(problem, _write(tmp_path, programs))
    assert results["close"].verdict is Verdict.AC
    assert results["far"].verdict is Verdict.WA and "error 5e-05" in results["far"].first_failure.message
    assert results["text"].verdict is Verdict.WA and "expected the number" in results["text"].first_failure.message


def test_custom_output_validator(tmp_path):
    problem = load_problem(STDIN / "problems" / "anysum")
    example = [t for t in problem.tests if t.name == "example-0"]
    programs = {"other_split": ("n = int(input())\nprint(n, 0)\n",), "wrong_sum": ("print(1, 1)\n",)}
    results = _grade(problem, _write(tmp_path, programs), tests=example)
    assert results["other_split"].verdict is Verdict.AC
    assert results["wrong_sum"].verdict is Verdict.WA
    assert results["wrong_sum"].first_failure.message == "1 + 1 is not 10"


def test_a_failing_validator_is_an_internal_error(tmp_path):
    problem = load_problem(STDIN / "problems" / "anysum")
    crash = [t for t in problem.tests if t.name == "crash"]
    result = _grade(problem, _write(tmp_path, {"any": ("print(3, 7)\n",)}), tests=crash)["any"]
    assert result.verdict is Verdict.IE
    assert "exited with status 1, not 42 or 43" in result.first_failure.message


@pytest.mark.parametrize("answer, output, flags, ok", [
    (b"3\n7\n", b"3 7", "", True),
    (b"3\n7\n", b"  3\t\t7\n\n\n", "", True),
    (b"DON'T PLAY\n", b"DON'T    PLAY", "", True),
    (b"DON'T PLAY\n", b"DONT PLAY", "", False),
    (b"Yes\n", b"yes\n", "", True),
    (b"Yes\n", b"yes\n", "case_sensitive", False),
    (b"Yes\n", b"Yes\n", "case_sensitive", True),
    (b"1 2\n", b"1 2\n", "space_change_sensitive", True),
    (b"1 2\n", b"1  2\n", "space_change_sensitive", False),
    (b"1 2\n", b"1 2", "space_change_sensitive", False),
    (b"", b"\n", "space_change_sensitive", False),
    (b"", b" \n\t", "", True),
    (b"1.5\n", b"1.5000001\n", "", False),
    (b"1.5\n", b"1.5000001\n", "float_tolerance 1e-6", True),
    (b"1000\n", b"1000.5\n", "float_absolute_tolerance 0.1", False),
    (b"1000\n", b"1000.5\n", "float_relative_tolerance 1e-3", True),
    (b"1000\n", b"1000.5\n", "float_absolute_tolerance 1", True),
    (b"0\n", b"1e-7\n", "float_relative_tolerance 1e-6", False),
    (b"0\n", b"1e-7\n", "float_tolerance 1e-6", True),
    (b"1.0\n", b"nan\n", "float_tolerance 1", False),
    (b"1.0\n", b"0x1p0\n", "float_tolerance 1", False),
    (b"abc\n", b"ABC\n", "float_tolerance 1e-6", True),
    (b"1 2\n", b"1\n", "", False),
    (b"\xff\xfe\n", b"\xff\xfe", "", True),
])
def test_token_checker(answer, output, flags, ok):
    assert compare_output(answer, output, TokenRules.parse(flags)).ok is ok


def test_token_checker_messages_are_escaped_and_short():
    outcome = compare_output(b"1\n", b"\x1b[2J" + b"x" * 100)
    assert not outcome.ok
    assert outcome.message.startswith("token 1 (answer line 1): expected '1', got '\\x1b[2Jxxx") and outcome.message.endswith("...'")
    assert len(outcome.message) < 100


@pytest.mark.parametrize("flags, error", [
    ("float_tolerance", "needs a number"),
    ("float_tolerance -1", "finite number >= 0"),
    ("ignore_case", "unknown output validator flag 'ignore_case'"),
])
def test_bad_flags_are_rejected(flags, error):
    with pytest.raises(ValueError, match=error):
        TokenRules.parse(flags)


def _grade_new_problem(judge, root: Path, spec: str, files: dict[str, str]):
    """Write problems/p/ (problem.yaml and tests/ files) under root and grade add.py on it."""
    folder = root / "problems" / "p"
    (folder / "tests").mkdir(parents=True)
    (folder / "problem.yaml").write_text(spec)
    for name, text in files.items():
        (folder / "tests" / name).write_text(text)
    return judge("--problems", root / "problems", "grade", STDIN / "solutions" / "add.py", "--problem", "p")


def test_bad_flags_in_problem_yaml_name_the_line(tmp_path, judge):
    code, _, err = _grade_new_problem(judge, tmp_path, "type: stdin\nname: Bad\nvalidator_flags: float_tolerance x\n",
                                      {"examples.yaml": "- {name: a, input: '1', output: '1'}\n"})
    assert code == 2
    spec = tmp_path / "problems" / "p" / "problem.yaml"
    assert err.strip() == f"judge: error: {spec}:3: validator_flags: float_tolerance needs a number after it"


def test_in_without_ans_is_reported(tmp_path, judge):
    code, _, err = _grade_new_problem(judge, tmp_path, "type: stdin\nname: Lonely\n", {"one.in": "1\n"})
    assert code == 2 and "one.in: no answer file one.ans beside it" in err


def test_grade_command_on_a_stdin_problem(judge):
    code, out, _ = judge("--problems", STDIN / "problems", "grade", STDIN / "solutions" / "add.py",
                         "--problem", "add", "-j", "1")
    assert code == 0
    assert "on Add (add): 2 tests" in out and "AC  passed 2/2" in out


def test_wrong_answer_names_the_token_and_the_answer_line():
    answer = b"EVEN\nDON'T PLAY\nODD\n"
    assert compare_output(answer, b"EVEN DON'T PLAY EVEN").message == "token 4 (answer line 3): expected 'ODD', got 'EVEN'"
    assert compare_output(answer, b"EVEN").message == "token 2 (answer line 2): expected \"DON'T\", got end of output"


def test_every_byte_value_passes_through_input_and_output(tmp_path):
    """Input and output are bytes end to end (no decoding on the way): an exact echo of all 256 values."""
    data = bytes(range(256)) * 3
    folder = _big_problem(tmp_path / "bytes", data, data)
    (folder / "problem.yaml").write_text("type: stdin\nname: Bytes\nvalidator_flags: space_change_sensitive\n")
    programs = {"echo": ("import sys\nsys.stdout.buffer.write(sys.stdin.buffer.read())\n",),
                "one_off": ("import sys\nsys.stdout.buffer.write(sys.stdin.buffer.read()[:-1] + b'\\xfe')\n",)}
    results = _grade(load_problem(folder), _write(tmp_path, programs))
    assert results["echo"].verdict is Verdict.AC, results["echo"].first_failure
    assert results["one_off"].verdict is Verdict.WA


def test_a_program_without_problem_is_told_to_name_it(judge):
    code, _, err = judge("--problems", STDIN / "problems", "grade", STDIN / "solutions" / "add.py")
    assert code == 2
    assert err.strip().endswith("add.py: the file defines no class: a program reading standard input needs "
                                "--problem SLUG (standard-input problems here: add, anysum, mean)")
