"""A Java solution's tests share a warm JVM (docs/languages.md), and nothing of one test reaches the next.

The probe (testdata/languages/java_warm/Probe.java) returns its JVM's process id, or -1 when it finds
what an earlier test left behind: so each test here says both which tests shared a JVM and that
statics, system properties, the default locale and time zone were fresh. Each figure asserted is the
zygote's (from the kernel), read through the worker as the pool reads it.
"""

from __future__ import annotations

import json
import signal
import threading

import psutil
import pytest

from tcjudge.engine.worker import Worker
from tcjudge.languages import JAVA
from tcjudge.problems.checkers import Checker
from tcjudge.problems.format import Parameter, Problem
from tcjudge.problems.loader import load_problem
from tcjudge.problems.method import METHOD
from tcjudge.problems.tctypes import TCType

from .conftest import FIXTURE_PROBLEMS, TESTDATA

pytestmark = pytest.mark.skipif(JAVA.toolchain() is None, reason=JAVA.missing_message())
PROBE = TESTDATA / "languages" / "java_warm" / "Probe.java"
PLAIN, ALLOCATE, LEAVE_A_THREAD, CHANGE_GLOBALS, EXHAUST_HEAP, START_A_THREAD, BIG_STACKS = range(7)
MEMORY_MIB = 256


@pytest.fixture()
def probe():
    """A function running one test of the probe in one worker: (returned value or error, facts)."""
    yield from _probe()


def _probe():
    int_type = TCType("int", 0)
    problem = Problem("probe", PROBE.parent, "Probe", "test fixture", "Probe", "probe",
                      [Parameter("mib", int_type), Parameter("mode", int_type)], TCType("long", 0),
                      time_limit=2, memory_limit=MEMORY_MIB, tests=[], check=Checker(TCType("long", 0)), kind=METHOD)
    worker = Worker()
    try:
        loaded = worker.load(("probe",), PROBE, "Probe", "probe", 2, MEMORY_MIB, True,
                             program=JAVA.program(PROBE, problem, 256 * 1024))
        assert loaded["ok"], loaded

        def run(mib: int, mode: int):
            facts = worker.run((mib, mode))
            report = json.loads(facts.report) if facts.report else {}
            return report.get("value", report.get("type")), facts

        yield run
    finally:
        worker.close()


def test_tests_share_a_jvm_with_fresh_statics_each_time(probe):
    pids = [probe(0, PLAIN)[0] for _ in range(5)]
    assert -1 not in pids
    assert len(set(pids)) == 1, pids  # one JVM served all five: its statics were new every time


def test_what_a_test_changes_of_the_jdk_is_put_back(probe):
    first, _ = probe(0, CHANGE_GLOBALS)
    after, _ = probe(0, PLAIN)
    assert after == first != -1  # the same JVM, and the property, locale and time zone were restored


def test_a_thread_left_running_ends_that_jvm(probe):
    first, _ = probe(0, LEAVE_A_THREAD)
    after, facts = probe(0, PLAIN)
    assert after not in (first, -1)  # a fresh JVM: the spinning thread cannot charge this test
    assert facts.cpu < 0.5


def test_a_test_that_started_a_thread_ends_that_jvm(probe):
    """The thread's stack (512 MiB here) stays mapped a while after it ends; beside the next test's,
    under RLIMIT_DATA, it made a solution's own thread fail to start at random: helper-39, a 512 MiB
    thread per test, 29 MLE of 1,800 tests, different tests each run. Before: the same JVM went on."""
    first, _ = probe(0, START_A_THREAD)
    after, _ = probe(0, PLAIN)
    assert after not in (first, -1) and first != -1
    again, _ = probe(0, PLAIN)
    assert again == after  # a test that started none keeps its JVM


def test_threads_with_big_stacks_start_as_in_a_plain_jvm(probe):
    """Breaker 52c: two 512 MiB-stack threads one after another in a test were MLE 'unable to create native
    thread' at random (the first's stack still mapped under RLIMIT_DATA), one of 1 GiB always; a plain
    JVM starts them. Reserved stacks are not memory used: the heap's limit and the peak decide MLE."""
    for _ in range(3):
        value, facts = probe(0, BIG_STACKS)
        assert isinstance(value, int) and value > 0, (value, facts)


def test_running_out_of_heap_ends_that_jvm_and_the_next_test_is_unharmed(probe):
    first, _ = probe(0, PLAIN)
    error, facts = probe(0, EXHAUST_HEAP)
    assert error == "MemoryError", facts
    after, _ = probe(0, PLAIN)
    assert after not in (first, -1)


def test_each_tests_memory_is_its_own(probe):
    """A light test after a heavy one shows what a light test shows first; the heavy one shows its own growth."""
    _, light = probe(0, PLAIN)
    pid, heavy = probe(120, ALLOCATE)
    again, light_again = probe(0, PLAIN)
    assert heavy.memory_mib >= light.memory_mib + 110
    assert abs(light_again.memory_mib - light.memory_mib) < 8, (light.memory_mib, light_again.memory_mib)
    assert again == pid  # the heap was given back, so the JVM was kept


def test_a_test_thread_that_cannot_start_is_the_judges_failure(monkeypatch):
    """The JVM starts each test's thread (with its 256 MiB stack) before it says ready, and tries
    again while the last test's thread still holds its stack. Before, it started the thread after
    reading the test: on a busy machine a start refused under RLIMIT_DATA ended the JVM with status 1,
    and the solution got RE (doorsgame's ColourSets.java, 3 of 6,000 tests beside six CPU burners).
    Here no start can succeed (a stack larger than the address space): the runtime never becomes
    ready, which is the judge's fault (IE), never the solution's exit."""
    from tcjudge.languages import java
    monkeypatch.setattr(java, "STACK_MIB", 64 << 10)
    probing = _probe()
    try:
        _, facts = next(probing)(0, PLAIN)
    finally:
        probing.close()
    assert facts.setup_error and "ready" in facts.setup_error, facts
    assert not facts.report


def test_a_taken_over_jvm_starved_between_tests_is_still_charged_for_what_it_did(tmp_path):
    """testdata/languages/java/TimeLimitTakesOverServingJvm.java takes the serving loop over and spends
    twice the limit of CPU between its tests: the second test is TLE. On a busy machine (helper-39,
    load 14-59) that JVM, starved, was not ready again within 5 s of wall time, was replaced, and the
    test ran in a fresh JVM: AC. Here the JVM is stopped for 7 s after its first test, as a starved one
    is: it has its test's budgets to be ready, and the CPU it then spends is charged (TLE)."""
    problem = load_problem(FIXTURE_PROBLEMS / "adder")
    source = TESTDATA / "languages" / "java" / "TimeLimitTakesOverServingJvm.java"
    worker = Worker()
    try:
        loaded = worker.load(("takeover",), source, "Adder", "add", problem.time_limit, problem.memory_limit, True,
                             program=JAVA.program(source, problem, 256 * 1024))
        assert loaded["ok"], loaded
        first = worker.run(problem.tests[0].args)
        assert first.ended == "returned", first
        jvm = next(p for p in psutil.Process(worker.process.pid).children(recursive=True) if "java" in p.name())
        jvm.send_signal(signal.SIGSTOP)
        threading.Timer(7, lambda: jvm.send_signal(signal.SIGCONT)).start()
        second = worker.run(problem.tests[0].args)
        assert second.ended == "cpu-limit", second  # (before: "returned", from a fresh JVM)
    finally:
        worker.close()
