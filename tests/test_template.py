"""The template (engine/template.py): once a solution's code is known, a quiet copy of the zygote
forks each test's child, so the zygote's own work no longer copies pages its children share; and
when the template is gone, the zygote forks the children itself with the same verdicts."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from tcjudge.engine.worker import Worker

from .conftest import TESTDATA

SOLUTION = str(TESTDATA / "solutions" / "accepted.py")
ZYGOTE_FAULTS_PER_TEST = 100  # a zygote that forks its children itself copied about 240 pages per test


def _children(pid: int) -> set[int]:
    found = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as handle:
            found.update(int(child) for child in handle.read().split())
    return found


def _minor_faults(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as handle:
        return int(handle.read().rsplit(")", 1)[1].split()[7])


def _loaded_worker() -> Worker:
    worker = Worker()
    worker.load(("adder",), SOLUTION, "Adder", "add", 2, 256, check=True)
    return worker


def _template_of(worker: Worker) -> int:
    """The zygote's child that outlives tests: each test takes the spare and forks the next, and
    the children it killed are reaped a test or two later."""
    zygote = worker.process.pid
    lasting = _children(zygote)
    for _ in range(5):
        worker.run(((1, 2), 3))
        lasting &= _children(zygote)
    # (on a loaded machine a killed child can take longer to tear down: the template is the one with a socket)
    lasting = {pid for pid in lasting if any(_link(pid, fd).startswith("socket:") for fd in _fds(pid))}
    assert len(lasting) == 1, f"one process should outlive the tests below the zygote: {lasting}"
    return lasting.pop()


def _fds(pid: int) -> list[str]:
    try:
        return os.listdir(f"/proc/{pid}/fd")
    except OSError:  # gone
        return []


def _link(pid: int, fd: str) -> str:
    try:
        return os.readlink(f"/proc/{pid}/fd/{fd}")
    except OSError:
        return ""


def test_children_are_forked_by_a_template_and_the_zygote_copies_few_pages():
    worker = _loaded_worker()
    try:
        for _ in range(3):  # the first test's child compiles the code; the template starts after it
            assert worker.run(((1, 2), 3)).ended == "returned"
        template = _template_of(worker)
        zygote = worker.process.pid
        before = _minor_faults(zygote)
        results = [worker.run(((index, 2), 3)) for index in range(50)]
        faults = (_minor_faults(zygote) - before) / 50
        assert [json.loads(facts.report)["value"] for facts in results] == [(index + 2) * 3 for index in range(50)]
        assert template in _children(zygote), "the same template forks every later test's child"
        assert faults < ZYGOTE_FAULTS_PER_TEST, f"the zygote took {faults:.0f} page faults per test"
    finally:
        worker.close()


def test_a_template_that_dies_leaves_the_zygote_forking_its_children_itself():
    worker = _loaded_worker()
    try:
        for _ in range(3):
            worker.run(((1, 2), 3))
        template = _template_of(worker)
        os.kill(template, signal.SIGKILL)
        time.sleep(0.1)
        results = [worker.run(((index, 2), 3)) for index in range(10)]
        assert [json.loads(facts.report)["value"] for facts in results] == [(index + 2) * 3 for index in range(10)]
        assert template not in _children(worker.process.pid)
    finally:
        worker.close()


def _four_tests(folder, name: str, source: str, memory_mib: int) -> list:
    """What Probe.look returned on four tests of one worker: the first forked by the zygote, the
    later ones by its template."""
    path = folder / f"{name}.py"
    path.write_text(source)
    worker = Worker()
    try:
        worker.load((name,), path, "Probe", "look", 5, memory_mib, check=True)
        return [json.loads(worker.run(((1, 2), 3)).report).get("value") for _ in range(4)]
    finally:
        worker.close()


CYCLES = """
class Probe:
    def look(self, a, b):
        for _ in range(200000):
            node = [bytearray(512)]
            node.append(node)  # a cycle: only the collector frees it
        return 1
"""


def test_a_child_the_template_forks_collects_its_garbage(tmp_path):
    """The template runs with the collector off; its children must not: a solution that makes cyclic
    garbage passed its first test (forked by the zygote) and ran out of memory on every later one."""
    assert _four_tests(tmp_path, "cycles", CYCLES, memory_mib=64) == [1] * 4


THREAD_IDS = """
import signal, threading, time
class Probe:
    def look(self, a, b):
        main, got, failed = threading.get_ident(), [], []
        clock = time.clock_gettime(time.pthread_getcpuclockid(main)) >= 0
        signal.signal(signal.SIGUSR1, lambda *_: got.append(1))
        def poke():
            try:
                signal.pthread_kill(main, signal.SIGUSR1)
            except OSError as err:
                failed.append(err.errno)
        helper = threading.Thread(target=poke)
        helper.start()
        helper.join()
        time.sleep(0.01)
        return [clock, got, failed]
"""


def test_a_child_the_template_forks_knows_its_own_thread_id(tmp_path):
    """glibc caches a thread's kernel id in its thread block; a raw clone does not update it (fork
    does): in the template's children, the main thread's CPU clock and pthread_kill named the template's."""
    assert _four_tests(tmp_path, "thread_ids", THREAD_IDS, memory_mib=256) == [[True, [1], []]] * 4


ROBUST_LIST = """
import ctypes
class Probe:
    def look(self, a, b):
        head, size = ctypes.c_void_p(), ctypes.c_size_t()
        ctypes.CDLL(None).syscall(274, 0, ctypes.byref(head), ctypes.byref(size))  # get_robust_list (x86_64)
        return head.value is not None
"""


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="the system call's number is x86_64's")
def test_a_child_the_template_forks_has_glibcs_robust_mutex_list(tmp_path):
    """The kernel forgets a process's robust-futex list at a fork; glibc's fork registers it again,
    a raw clone did not: a robust mutex the main thread held at its death was never marked abandoned."""
    assert _four_tests(tmp_path, "robust", ROBUST_LIST, memory_mib=256) == [True] * 4


DIES_AFTER_CLONING = """
import os, signal, sys
code = sys.argv[sys.argv.index("-c") + 1]
sys.argv = ["-c", *sys.argv[sys.argv.index("-c") + 2:]]
sys.path.insert(0, {root!r})
from tcjudge.engine import template

class DieAfterSecondClone:  # the template's reply: it dies between its clone and its answer, once
    size, calls = template.PID.size, 0
    def pack(self, pid):
        DieAfterSecondClone.calls += 1
        if DieAfterSecondClone.calls == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        return template.PID.pack(pid)

template.PID = DieAfterSecondClone()
exec(code)
"""

LOUD = """
import sys
print("loaded", file=sys.stderr)
class Adder:
    def add(self, values, factor):
        return sum(values) * factor
"""


def test_a_template_that_dies_after_cloning_leaves_no_second_process_on_a_tests_channels(tmp_path):
    """A template killed between its clone and its answer has made a child of the zygote on the
    channels it was sent: the zygote, forking the test's child itself, must not hand it the same ones
    (two processes then shared one test's arguments, output and result)."""
    python = tmp_path / "python"
    python.write_text(f"#!{sys.executable} -S\n" + DIES_AFTER_CLONING.format(root=str(Path(__file__).parent.parent)))
    python.chmod(0o755)
    solution = tmp_path / "loud.py"
    solution.write_text(LOUD)
    worker = Worker(python=str(python))
    try:
        worker.load(("loud",), solution, "Adder", "add", 2, 256, check=True)
        results = [worker.run(((index, 2), 3)) for index in range(6)]
        assert [json.loads(facts.report).get("value") for facts in results] == [(index + 2) * 3 for index in range(6)]
        assert [facts.output.count("loaded") for facts in results] == [1] * 6
    finally:
        worker.close()
