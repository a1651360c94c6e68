"""No confined process outlives its test or its judge, whatever the timing.

A forked "judge" makes itself a child subreaper (so anything orphaned below it comes back to it,
not to pid 1, and other people's processes on this machine never count), runs many short
gradings back to back, each killing its zygote right after its answer, at varying points of the
zygote's fork of the next spare child, and then lists what is still alive below it.
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import subprocess
import threading
import time

import psutil
import pytest

from tcjudge.engine import pool as pool_module
from tcjudge.engine import worker as worker_module
from tcjudge.engine.pool import Pool, SolutionRun
from tcjudge.engine.worker import Worker
from tcjudge.engine.processes import die_with_parent
from tcjudge.problems.loader import load_problem

from .conftest import FIXTURE_PROBLEMS, TESTDATA, zygote_pids

PR_SET_CHILD_SUBREAPER = 36
GRADINGS = 40


def _judge(out_fd: int) -> None:
    report: dict = {}
    try:
        if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "PR_SET_CHILD_SUBREAPER")
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core: the zygote and its child take turns
        solution = str(TESTDATA / "solutions" / "accepted.py")
        verdicts = []
        for index in range(GRADINGS):
            worker = Worker()
            worker.load(("adder",), solution, "Adder", "add", 2, 256, check=False)
            verdicts.append(worker.run(((1, 2), 3)).ended)
            until = time.perf_counter() + (index % 20) * 50e-6  # kill at every point of the next fork
            while time.perf_counter() < until:
                pass
            worker.close()
        time.sleep(0.5)  # anything killed by its parent's death has ended by now
        while True:
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break
        left = []
        for proc in psutil.Process().children(recursive=True):
            try:
                left.append(f"{proc.pid} ({proc.status()}, parent {proc.ppid()})")
                proc.kill()
            except psutil.Error:
                pass
        report = {"verdicts": verdicts, "left": left}
    except BaseException as err:  # noqa: BLE001 - everything goes back to the test
        report = {"error": f"{type(err).__name__}: {err}"}
    finally:
        os.write(out_fd, json.dumps(report).encode())
        os._exit(0)


def test_back_to_back_gradings_leave_no_confined_process():
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        _judge(write_fd)
    os.close(write_fd)
    chunks = []
    while chunk := os.read(read_fd, 1 << 16):
        chunks.append(chunk)
    os.close(read_fd)
    os.waitpid(pid, 0)
    report = json.loads(b"".join(chunks))
    assert "error" not in report, report["error"]
    assert report["verdicts"] == ["returned"] * GRADINGS
    assert report["left"] == [], f"{len(report['left'])} processes outlived their grading: {report['left']}"


def test_a_child_whose_parent_died_before_it_asked_ends_at_once():
    # The race, made certain: the parent is gone before the child sets its parent-death signal.
    # A forked helper is a subreaper, so the orphan comes back to it and it can wait for it.
    helper = os.fork()
    if helper == 0:
        status = 99
        try:
            ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
            read_fd, write_fd = os.pipe()
            middle = os.fork()
            if middle == 0:
                parent = os.getpid()
                if os.fork() == 0:
                    os.close(write_fd)
                    os.read(read_fd, 1)  # until its parent has exited
                    die_with_parent(parent)
                    os._exit(3)  # what a leaked child would go on to do
                os._exit(0)
            os.waitpid(middle, 0)
            os.close(write_fd)
            _, child_status = os.wait()  # the orphan, re-parented to us
            status = os.waitstatus_to_exitcode(child_status)
        finally:
            os._exit(status)
    _, status = os.waitpid(helper, 0)
    assert os.waitstatus_to_exitcode(status) == 0, "the orphan went on running"


def test_a_worker_serves_one_solution():
    # Whatever one solution did to its worker cannot reach the next: each gets workers of its own.
    problem = load_problem(FIXTURE_PROBLEMS / "adder")
    seen: dict[str, set[int]] = {}

    def on_test(run, index, result):
        seen.setdefault(run.solution.name, set()).update(zygote_pids())

    solutions = [TESTDATA / "solutions" / name for name in ("accepted.py", "wrong_answer.py", "accepted_prints.py")]
    with Pool(1) as pool:
        pool.grade([SolutionRun(problem, path, problem.tests, False) for path in solutions], on_test=on_test)
    assert len(seen) == 3 and all(len(pids) == 1 for pids in seen.values()), seen
    assert len(set.union(*seen.values())) == 3, f"a worker served two solutions: {seen}"


def _zygotes_seen(solution, tests: int) -> set[int]:
    """The most zygotes alive at once while each test of a -j2 grading of `solution` on adder was
    reported: the workers that ran together. (Not every zygote seen: on a busy machine a worker is
    replaced after a test that found it overloaded, one zygote after another; helper-39 saw two
    at load 14-59 where one worker did all 400 tests.)"""
    problem = load_problem(FIXTURE_PROBLEMS / "adder")
    most: set[int] = set()

    def seen(run, index, result):
        nonlocal most
        alive = zygote_pids()
        most = alive if len(alive) > len(most) else most

    with Pool(2) as pool:
        [result] = pool.grade([SolutionRun(problem, solution, (problem.tests * 8)[:tests], False)], on_test=seen)
    assert str(result.verdict) == "AC", result
    return most


def test_a_grading_the_first_worker_finishes_alone_starts_one_zygote(monkeypatch):
    monkeypatch.setattr(pool_module, "LATER_WORKERS_AFTER", 0.3)  # 3 trivial tests: ~25 ms, with room for a busy machine
    assert len(_zygotes_seen(TESTDATA / "solutions" / "accepted.py", 3)) == 1


def test_a_longer_grading_starts_the_second_worker(tmp_path, monkeypatch):
    monkeypatch.setattr(pool_module, "LATER_WORKERS_AFTER", 0.3)  # 12 tests of 0.1 s each
    slow = tmp_path / "slow.py"
    slow.write_text("import time\nclass Adder:\n    def add(self, values, factor):\n        time.sleep(0.1)\n"
                    "        return sum(values) * factor\n")
    assert len(_zygotes_seen(slow, 12)) == 2


def test_every_zygote_of_a_grading_ends_on_its_own_before_its_thread_does(tmp_path, monkeypatch):
    # A zygote dies with the worker thread that started it (PR_SET_PDEATHSIG): before the fix each one
    # was killed as its thread ended, so it never removed its cgroups (a sweep did) nor ended its
    # template (init reaped it). Now each thread ends its zygote first: every one exits 0, no sweep.
    monkeypatch.setattr(pool_module, "LATER_WORKERS_AFTER", 0.3)
    swept = []
    monkeypatch.setattr(worker_module, "remove_stale_cgroups", lambda *args: swept.append(args))
    started = []

    class Recorded(Worker):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            started.append(self)

    monkeypatch.setattr(pool_module, "Worker", Recorded)
    slow = tmp_path / "slow.py"
    slow.write_text("import time\nclass Adder:\n    def add(self, values, factor):\n        time.sleep(0.1)\n"
                    "        return sum(values) * factor\n")
    problem = load_problem(FIXTURE_PROBLEMS / "adder")
    with Pool(2) as pool:
        [result] = pool.grade([SolutionRun(problem, slow, (problem.tests * 8)[:12], False)])
        ended = [worker.process.poll() for worker in started]
        assert pool._workers == []
    assert str(result.verdict) == "AC", result
    assert ended == [0, 0] and swept == []


def test_a_later_worker_starts_only_when_the_tests_left_outlast_a_zygotes_start(monkeypatch):
    # 400 trivial tests, weighed every second: what is left takes far less than the hour a zygote's
    # start is made to cost here, so the first worker does them all (before, a second one started).
    # (Weighed every 0.1 s, at load 30-136 the first two tests had not ended when first asked, and
    # with no rate yet a second worker starts: helper-44 saw 2 zygotes. That is the rule, not a fault.)
    monkeypatch.setattr(pool_module, "LATER_WORKERS_AFTER", 1.0)
    monkeypatch.setattr(pool_module, "ZYGOTE_START", 3600)
    assert len(_zygotes_seen(TESTDATA / "solutions" / "accepted.py", 400)) == 1


def test_a_grading_the_first_worker_finishes_alone_never_waits_for_the_later_workers_timer(monkeypatch):
    # The later worker's wait ends as soon as the queue is found empty: with a timer no run could
    # outlast, the grading still ends (before the fix it waited the timer out).
    monkeypatch.setattr(pool_module, "LATER_WORKERS_AFTER", 3600)
    ended = threading.Event()
    grading = threading.Thread(target=lambda: (_zygotes_seen(TESTDATA / "solutions" / "accepted.py", 3), ended.set()),
                               daemon=True)
    grading.start()
    assert ended.wait(60), "the grading waited for the later worker's timer"



def test_a_child_holds_no_capability_and_the_zygote_keeps_its_own():
    # As root, the zygote empties its bounding set once (sandbox.drop_bounding_set) and each child
    # drops the rest. The spare child forked ahead of the next test, once confined, holds nothing
    # (read from outside: a child cannot read /proc); the zygote keeps its effective set (cgroups).
    problem = load_problem(FIXTURE_PROBLEMS / "adder")
    worker = Worker()
    try:
        assert worker.load(("caps",), TESTDATA / "solutions" / "accepted.py", problem.class_name, problem.method,
                           2.0, 64, check=True).get("ok")
        worker.run(problem.tests[0].args)
        zygote = psutil.Process(worker.process.pid)
        deadline = time.monotonic() + 30
        while True:
            spares = [_capabilities(child.pid) for child in zygote.children()]
            confined = [caps for caps in spares if caps.get("CapEff") == "0" * 16]
            if confined or time.monotonic() > deadline:
                break
            time.sleep(0.01)
        own = _capabilities(zygote.pid)
    finally:
        worker.close()
    assert confined and all(value == "0" * 16 for value in confined[0].values()), spares
    assert set(confined[0]) == {"CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"}
    if os.geteuid() == 0:
        assert own["CapBnd"] == "0" * 16 and own["CapEff"] != "0" * 16, own


def _capabilities(pid: int) -> dict[str, str]:
    try:
        with open(f"/proc/{pid}/status") as status:
            return {line.split()[0].rstrip(":"): line.split()[1] for line in status if line.startswith("Cap")}
    except OSError:  # it ended meanwhile
        return {}


def test_waiting_for_a_process_to_exit_returns_when_it_has_and_times_out_when_it_does_not():

    quick = subprocess.Popen(["sh", "-c", "exit 3"])
    worker_module._wait_for_exit(quick, 30)
    assert quick.returncode == 3
    stuck = subprocess.Popen(["sleep", "30"])
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            worker_module._wait_for_exit(stuck, 0.1)
        assert stuck.poll() is None
    finally:
        stuck.kill()
        stuck.wait()


def test_a_zygote_that_does_not_end_when_asked_is_killed(monkeypatch):

    monkeypatch.setattr(worker_module, "CLOSE_GRACE", 0.2)
    worker = Worker()
    os.kill(worker.process.pid, signal.SIGSTOP)  # it cannot read the request to end
    assert worker.close() is False and worker.process.returncode == -signal.SIGKILL
    worker_module.remove_stale_cgroups()  # (it could not remove its own)


def test_a_judge_holding_over_a_thousand_descriptors_grades_as_any(tmp_path):
    """`judge serve` holds a descriptor per connection: the worker's pipes and pidfds then have
    numbers past 1024, which select() refuses (ValueError: IE for every test); poll() has no such bound."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 1200
    if soft < wanted + 100:
        if hard != resource.RLIM_INFINITY and hard < wanted + 100:
            pytest.skip(f"RLIMIT_NOFILE's hard limit is {hard}: a process cannot hold {wanted} descriptors")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted + 100, hard))
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(wanted)]
    try:
        problem = load_problem(FIXTURE_PROBLEMS / "adder")
        runs = [SolutionRun(problem, TESTDATA / "solutions" / name, problem.tests, True)
                for name in ("accepted.py", "wrong_answer.py")]
        with Pool(1) as pool:
            results = pool.grade(runs)
        assert [str(result.verdict) for result in results] == ["AC", "WA"], [r.first_failure for r in results]
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_spare_that_cannot_start_leaves_its_taker_an_error_not_a_wait(monkeypatch):
    """A zygote's start that fails in the starter thread for any reason (not only out of processes
    or memory) is the taker's to report: the thread ended by it left `take` waiting for ever."""
    from tcjudge.engine import spares as spares_module

    def broken(*args, **kwargs):
        raise RuntimeError("a fault of the judge's own")

    monkeypatch.setattr(spares_module, "Worker", broken)
    outcome = []
    with spares_module.Spares() as spares:
        spares.start(1)
        taker = threading.Thread(target=lambda: outcome.append(_taken(spares)), daemon=True)
        taker.start()
        taker.join(30)
    assert not taker.is_alive(), "take() waited for a zygote that never comes"
    assert outcome == ["RuntimeError: a fault of the judge's own"]


def _taken(spares) -> str:
    try:
        spares.take()
    except RuntimeError as err:
        return f"RuntimeError: {err}"
    return "a worker"
