"""The verdict rules of docs/verdicts.md, one by one: precedence, IE that nothing hides, figures
that do not depend on scheduling, the recursion depth of `python3 solution.py`, the machine's
overload as IE, and a closed output pipe."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.load import cpu_burners
from tcjudge.engine.judging import judge_test
from tcjudge.engine.pool import Pool, SolutionRun
from tcjudge.engine.results import GradeResult
from tcjudge.engine.results import TestResult as Ran  # (not a test class)
from tcjudge.engine.worker import Worker
from tcjudge.problems.loader import load_problem
from tcjudge.reports.tables import check_row
from tcjudge.protocol import STACK_LIMIT_LINE, Limits
from tcjudge.verdicts import RunFacts, Verdict, decide

from . import budget
from .conftest import FIXTURE_PROBLEMS, ROOT, TESTDATA

STABILITY = load_problem(TESTDATA / "stability" / "problems" / "stability")
LIMITS = Limits(1.0, 64)


def facts(**changes) -> RunFacts:
    """A run that returned normally within its limits, changed as the test needs."""
    base = dict(ended="returned", exit_code=None, signal=None, cpu=0.1, wall=0.2, peak_rss_kib=20 * 1024,
                report='{"kind": "return", "value": 41}', report_truncated=False, output="", setup_error=None)
    return RunFacts(**(base | changes))


ERROR = {"kind": "error", "type": "ValueError", "message": "bad", "line": 3, "errno": None}
OVER_MEMORY = dict(peak_rss_kib=80 * 1024)


@pytest.mark.parametrize("facts_, report, answer, expected", [
    (facts(**OVER_MEMORY, ended="cpu-limit", cpu=1.0), None, None, Verdict.MLE),  # memory, then out of time
    (facts(ended="signaled", signal=9, cpu=1.2), {"kind": "error", "type": "MemoryError"}, None, Verdict.MLE),
    (facts(**OVER_MEMORY), ERROR, None, Verdict.MLE),  # reached the limit, then raised something else
    (facts(**OVER_MEMORY), {"kind": "return"}, (Verdict.WA, "expected 1"), Verdict.MLE),
    (facts(ended="cpu-limit", cpu=1.0), ERROR, None, Verdict.TLE),
    (facts(ended="overloaded", cpu=1.01), None, None, Verdict.TLE),  # the CPU it used is a fact
    (facts(ended="overloaded", cpu=0.3), None, None, Verdict.IE),
    (facts(ended="idle-limit", cpu=0.0), None, None, Verdict.TLE),
    (facts(ended="exited", exit_code=1), ERROR, None, Verdict.RE),
    (facts(ended="signaled", signal=11), None, None, Verdict.RE),
    (facts(), {"kind": "garbled"}, None, Verdict.RE),
    (facts(report_truncated=True), None, None, Verdict.RE),
    (facts(), {"kind": "return"}, (Verdict.WA, "expected 1"), Verdict.WA),
    (facts(setup_error="no fork", **OVER_MEMORY), None, None, Verdict.IE),
])  # fmt: skip
def test_one_precedence(facts_, report, answer, expected):
    verdict, message = decide(facts_, LIMITS, report, answer)
    assert verdict is expected and message


def test_nothing_wrong_is_no_verdict():
    assert decide(facts(), LIMITS, {"kind": "return"}, (Verdict.AC, "")) is None


def test_messages_say_which_limit():
    assert decide(facts(ended="idle-limit", idle=3.0), LIMITS, None)[1].startswith("idle for 3.0 s")
    assert "machine overloaded" in decide(facts(ended="overloaded", waited=31.0), LIMITS, None)[1]
    assert decide(facts(ended="signaled", signal=11, report=""), LIMITS, None)[1] == "killed by SIGSEGV"


PYTHON_DEEP = ("Fatal Python error: Segmentation fault\n\nStack (most recent call first):\n"
               + '  File "s.py", line 5 in f\n' * 100 + "  ...\n")
# 3.13.0's faulthandler: the 100 frames it keeps of a deeper stack, with no "  ..." after them.
PYTHON_313_DEEP = ("Fatal Python error: Segmentation fault\n\nCurrent thread 0x00007f0845960b80 (most recent call first):\n"
                   + '  File "s.py", line 5 in f\n' * 100)
PYTHON_SHALLOW = 'Fatal Python error: Segmentation fault\n\nStack (most recent call first):\n  File "s.py", line 5 in f\n'
NATIVE = STACK_LIMIT_LINE.decode()


@pytest.mark.parametrize("changes, hint", [
    (dict(crash=NATIVE), " (stack overflow: the stack was at its limit)"),
    (dict(crash=PYTHON_DEEP), " (stack overflow? it crashed over 100 calls deep)"),
    (dict(crash=PYTHON_313_DEEP), " (stack overflow? it crashed over 100 calls deep)"),
    (dict(crash=PYTHON_313_DEEP.replace('  File "s.py", line 5 in f\n', "", 1)), ""),  # 99 frames: under the cap
    (dict(crash=""), ""),  # no evidence (a C or C++ program of its own, a crash on another stack)
    (dict(crash=PYTHON_SHALLOW), ""),  # a null pointer in shallow code
    (dict(crash=NATIVE + "and more the solution wrote"), ""),  # not the runtime's line alone
    (dict(crash=NATIVE, signal=6), ""),  # evidence only ever explains a SIGSEGV the kernel reported
])
def test_a_crash_hint_needs_evidence(changes, hint):
    run = facts(**(dict(ended="signaled", signal=11, report="") | changes))
    assert decide(run, LIMITS, None) == (Verdict.RE, f"killed by {signal.Signals(run.signal).name}{hint}")


@pytest.mark.parametrize("changes", [dict(ended="exited", exit_code=0), dict(ended="returned")])
def test_forged_evidence_changes_no_verdict(changes):
    """A solution may write the evidence itself: without a death by SIGSEGV it is not read at all."""
    run = facts(**(dict(report="", crash=NATIVE) | changes))
    assert "stack" not in str(decide(run, LIMITS, None)) and "stack" not in str(judge_test(STABILITY.tests[0], run, STABILITY))


def test_a_program_run_without_our_runtime_that_raised_memory_error_reached_the_memory_limit():
    """Breaker 56b F2: a Kattis package's Python submission, run by PyPy 3 (no result channel), that ended
    on an uncaught MemoryError was RE "exited with status 1 without returning a value"; a MemoryError
    is the memory limit reached (docs/verdicts.md; a Kattis package then says RE "out of memory: ...",
    its format having no MLE). F3: a program's exit says no "returning a value"."""
    traceback = 'Traceback (most recent call last):\n  File "mem.py", line 1, in <module>\nMemoryError\n'
    ran = facts(ended="exited", exit_code=1, report="", output=traceback, answer=b"")
    assert decide(ran, LIMITS, None) == (Verdict.MLE, "MemoryError (its traceback's last line): the memory limit was reached")
    assert decide(facts(ended="exited", exit_code=1, report="", output="Traceback ...\nValueError: no\n", answer=b""),
                  LIMITS, None) == (Verdict.RE, "the program exited with status 1")
    aborted = facts(ended="signaled", signal=signal.SIGABRT, report="", answer=b"",
                    output="terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc\n")
    assert decide(aborted, LIMITS, None)[0] is Verdict.MLE  # (breaker 56d F10: RE "killed by SIGABRT")


def test_judge_test_gives_memory_before_time():
    test = STABILITY.tests[0]
    verdict, _, _ = judge_test(test, facts(**OVER_MEMORY, ended="cpu-limit", cpu=0.31, report=""), STABILITY)
    assert verdict is Verdict.MLE


def _grade(tests: list[Ran]) -> GradeResult:
    return GradeResult(STABILITY, Path("s.py"), tests)


def test_an_internal_error_is_never_hidden_by_an_earlier_failure():
    result = _grade([Ran("a", Verdict.TLE), Ran("b", Verdict.AC), Ran("c", Verdict.IE)])
    assert result.verdict is Verdict.IE
    assert check_row(result)[3] == "c IE"


def test_check_row_has_no_scheduling_dependent_figure():
    """Two grades that differ only in how far parallel workers got show the same row."""
    early = _grade([Ran("a", Verdict.AC), Ran("b", Verdict.WA), Ran("c", None)])
    late = _grade([Ran("a", Verdict.AC, cpu_ms=3), Ran("b", Verdict.WA, cpu_ms=9),
                   Ran("c", Verdict.AC, cpu_ms=1)])
    assert check_row(early) == check_row(late)
    assert check_row(early)[2:4] == ["WA", "b WA"]


def test_tests_after_the_first_failure_never_count():
    run = SolutionRun(STABILITY, Path("s.py"), STABILITY.tests, stop_on_failure=True)
    run.results = [Ran("first", Verdict.WA), Ran("second", Verdict.AC)]  # the second was in flight
    run.first_failure = 0
    result = run.result()
    assert [t.verdict for t in result.tests] == [Verdict.WA, None] and result.passed == 0


# -- recursion depth: what `python3 solution.py` gives --------------------------------------------

DEPTH_PROBE = '''
def probe(k=1):
    try:
        return probe(k + 1)
    except RecursionError:
        return k


class Stability:
    def run(self, n):
        return probe()


if __name__ == "__main__":
    print(Stability().run(0))
'''


def test_recursion_depth_is_that_of_python3_on_every_test(tmp_path):
    source = tmp_path / "depth.py"
    source.write_text(DEPTH_PROBE)
    plain = int(subprocess.run([sys.executable, str(source)], capture_output=True, text=True, check=True).stdout)
    tests = STABILITY.tests * 3  # the first test's child and spares forked from other places
    for jobs in (1, 2):
        with Pool(jobs) as pool:
            [result] = pool.grade([SolutionRun(STABILITY, source, tests, stop_on_failure=False)])
        depths = [int(test.returned) for test in result.tests]
        assert len(set(depths)) == 1 and abs(depths[0] - plain) <= 2, (plain, depths)


def test_raising_the_recursion_limit_behaves_as_in_python3(tmp_path):
    source = tmp_path / "limit.py"
    source.write_text("import sys\nsys.setrecursionlimit(5000)\nLIMIT = sys.getrecursionlimit()\n"
                      + DEPTH_PROBE.replace("return probe()", "return probe() * 10**6 + LIMIT"))
    plain = int(subprocess.run([sys.executable, str(source)], capture_output=True, text=True, check=True).stdout)
    with Pool(1) as pool:
        [result] = pool.grade([SolutionRun(STABILITY, source, STABILITY.tests, stop_on_failure=False)])
    for test in result.tests:
        depth, limit = divmod(int(test.returned), 10**6)
        assert limit == 5000 and abs(depth - plain // 10**6) <= 2, (plain, test.returned)


# Recursion through C (lru_cache's wrapper is C): in 3.11 each level counts against the recursion
# limit, as Python frames do; from 3.12 also against the interpreter's fixed C budget
# (Py_C_RECURSION_LIMIT), which is what stops it once the limit is raised (docs/verdicts.md).
C_DEPTH_PROBE = """import functools
import sys
{raise_limit}

@functools.lru_cache(maxsize=None)
def probe(k=1):
    try:
        return probe(k + 1)
    except RecursionError:
        return k

{call}
"""
C_DEPTH_CALLS = {"method": "class Stability:\n    def run(self, n):\n        return probe()\n\n\n"
                           "if __name__ == '__main__':\n    print(Stability().run(0))\n",
                 "program": "input()\nprint(probe())\n"}
# The raised limit only where the C budget bounds it: in 3.11 the C stack does (memory_limit_stack_recursion).
C_DEPTH_LIMITS = ["", "sys.setrecursionlimit(10**6)"] if sys.version_info >= (3, 12) else [""]


@pytest.mark.parametrize("raise_limit", C_DEPTH_LIMITS, ids=lambda line: "raised limit" if line else "default limit")
@pytest.mark.parametrize("kind", C_DEPTH_CALLS)
def test_recursion_through_c_is_as_deep_as_in_python3_on_every_test(tmp_path, kind, raise_limit):
    """Exactly as deep: from 3.12, the judge's exec of the module and a bound method called with
    *args each went through C, and cost a solution one lru_cache level of its 499 (3.12.1) or 3,333
    (3.13.0) before the test that compares it with plain python3."""
    source = tmp_path / "c_depth.py"
    source.write_text(C_DEPTH_PROBE.format(raise_limit=raise_limit, call=C_DEPTH_CALLS[kind]))
    plain = int(subprocess.run([sys.executable, str(source)], input="1\n", capture_output=True, text=True,
                               check=True).stdout)
    problem = STABILITY if kind == "method" else load_problem(TESTDATA / "stdin" / "problems" / "add")
    with Pool(2) as pool:
        [result] = pool.grade([SolutionRun(problem, source, problem.tests * 3, stop_on_failure=False)])
    if kind == "method":
        depths = [int(test.returned) for test in result.tests]
    else:  # the program's answer is its depth: a WA that says what it printed
        depths = [int(test.message.rsplit("got ", 1)[1].strip("'")) for test in result.tests]
    assert depths == [plain] * len(result.tests), (plain, depths)


# -- the machine's fault ---------------------------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs sched_setaffinity")
def test_a_test_that_cannot_get_a_cpu_is_an_internal_error(monkeypatch):
    """A worker at the lowest priority, sharing one CPU with burners at the default one: its test
    waits for a CPU far longer than the (here tiny) overload bound, and the verdict is IE, never TLE."""
    monkeypatch.setattr(Limits, "overload", property(lambda self: 0.5))
    cpu = {min(os.sched_getaffinity(0))}
    worker = Worker()
    try:
        os.sched_setaffinity(worker.process.pid, cpu)
        os.setpriority(os.PRIO_PROCESS, worker.process.pid, 19)
        source = TESTDATA / "stability" / "solutions" / "cpu_two_thirds.py"
        worker.load(("k",), source, "Stability", "run", 5.0, 64, check=False)
        with cpu_burners(4) as burners:
            for burner in burners:
                os.sched_setaffinity(burner.pid, cpu)
            run = worker.run((20,))
    finally:
        worker.close()
    verdict, message, _ = judge_test(STABILITY.tests[0], run, STABILITY)
    assert run.ended == "overloaded" and verdict is Verdict.IE and "machine overloaded" in message, run


# -- exit codes ------------------------------------------------------------------------------------

def test_report_exits_1_on_a_mismatch(judge, tmp_path):
    code, out, _ = judge("--problems", FIXTURE_PROBLEMS, "--solutions", TESTDATA / "stored_mismatch", "report",
                         "--out", tmp_path, "-j", "1")
    assert code == 1 and "MISMATCH" in out and "0 got their expected verdict" in out


def test_a_closed_pipe_ends_quietly(tmp_path):
    """`judge.py grade ... | head -1` once head has gone: no traceback, the exit status of SIGPIPE."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first line
    try:
        judge = budget.run([sys.executable, str(ROOT / "judge.py"), "--problems", str(FIXTURE_PROBLEMS),
                                "--history", str(tmp_path / "history.sqlite"), "grade",
                                str(TESTDATA / "solutions" / "accepted.py"), "-j", "1"],
                               stdout=write_end, stderr=subprocess.PIPE, text=True, cwd=ROOT, cpu=120)
    finally:
        os.close(write_end)
    assert judge.returncode == 141 and "Traceback" not in judge.stderr and "Exception" not in judge.stderr, judge.stderr
