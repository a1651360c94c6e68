"""Requests sent ahead (engine/pool.py _send_ahead): a worker thread sends its next test's request
before it reads and judges the answer to the one before, so the zygote never waits for the judge;
answers still come back in order, and a test that a stop on failure skips after its request was
sent is answered all the same and its answer dropped."""

from __future__ import annotations

import json
import queue
import time
from pathlib import Path

from tcjudge.engine.pool import AHEAD_CAP, Pool, SolutionRun
from tcjudge.engine.worker import Worker
from tcjudge.problems.format import Data
from tcjudge.problems.loader import load_problem
from tcjudge.record import replace
from tcjudge.verdicts import Verdict

from .conftest import FIXTURE_PROBLEMS, TESTDATA

ADDER = FIXTURE_PROBLEMS / "adder"
ACCEPTED = TESTDATA / "solutions" / "accepted.py"
STDIN = TESTDATA / "stdin"


def test_requests_sent_together_are_answered_in_order():
    worker = Worker()
    try:
        worker.load(("adder",), ACCEPTED, "Adder", "add", 2, 256, check=False)
        assert worker.send_test(args=((1, 2, 3), 2)) and worker.send_test(args=((5,), -3))
        assert [json.loads(worker.answer().report)["value"] for _ in range(2)] == [12, -15]
        assert not worker.send_test(args=(tuple(range(AHEAD_CAP)), 1), cap=AHEAD_CAP)  # too long: not sent
        assert json.loads(worker.run(((4,), 4)).report)["value"] == 16  # ... and nothing was left in the pipe
    finally:
        worker.close()


def _record_calls(monkeypatch) -> list[str]:
    calls: list[str] = []
    real_send, real_answer = Worker.send_test, Worker.answer

    def send_test(worker, args=None, data=None, cap=None):
        sent = real_send(worker, args=args, data=data, cap=cap)
        if sent:
            calls.append(f"send {list(args[0])}")
        return sent

    def answer(worker):
        facts = real_answer(worker)
        calls.append(f"answer {json.loads(facts.report)['value']}")
        return facts

    monkeypatch.setattr(Worker, "send_test", send_test)
    monkeypatch.setattr(Worker, "answer", answer)
    return calls


def test_the_next_test_is_sent_before_this_ones_answer_is_read(monkeypatch):
    calls = _record_calls(monkeypatch)
    problem = load_problem(ADDER)
    with Pool(1) as pool:
        [result] = pool.grade([SolutionRun(problem, ACCEPTED, problem.tests, stop_on_failure=True)])
    assert result.verdict is Verdict.AC and result.passed == 4
    assert calls == ["send [1, 2, 3]", "send []", "answer 12", "send [1000000000, 1000000000, 1000000000]",
                     "answer 0", "send [-5, 2]", "answer 3000000000000", "answer 9"]


def test_a_test_skipped_after_its_request_was_sent_has_its_answer_dropped(tmp_path: Path):
    """Two runs of one solution share a worker: the second run's first answer must be its own, not
    the answer to the first run's skipped test, whose request was sent while the failing one ran."""
    solution = tmp_path / "wrong_when_empty.py"
    solution.write_text("class Adder:\n    def add(self, values, factor):\n"
                        "        return sum(values) * factor if values else 1\n")
    problem = load_problem(ADDER)
    runs = [SolutionRun(problem, solution, problem.tests, stop_on_failure=True) for _ in range(2)]
    with Pool(1) as pool:
        results = pool.grade(runs)
    for result in results:
        assert [test.verdict for test in result.tests] == [Verdict.AC, Verdict.WA, None, None]


def _stdin_tests(*inputs: Data | tuple[int, int]) -> tuple:
    """The stdin fixture `add` with one test per input, (a, b) (answered a + b) or a Data (answered
    0), and its solution."""
    problem = load_problem(STDIN / "problems" / "add")
    tests = [replace(problem.tests[0], name=f"test-{number}",
                     input=given if isinstance(given, Data) else Data(inline=b"1\n%d %d\n" % given),
                     answer=Data(inline=b"0\n" if isinstance(given, Data) else b"%d\n" % sum(given)))
             for number, given in enumerate(inputs)]
    return problem, tests, STDIN / "solutions" / "add.py"


def test_an_input_that_cannot_be_read_fails_its_own_test_not_the_one_before():
    """/proc/self/mem says it is empty (so small enough to send ahead) and cannot be read from 0 (EIO):
    the test before must not take its error, nor leave its own answer in the pipe for the next test."""
    problem, tests, solution = _stdin_tests((1, 2), Data(path=Path("/proc/self/mem")), (5, 5), (7, 7))
    with Pool(1) as pool:
        every, stopped = pool.grade([SolutionRun(problem, solution, tests, stop_on_failure=stop) for stop in (False, True)])
    assert [test.verdict for test in every.tests] == [Verdict.AC, Verdict.IE, Verdict.AC, Verdict.AC]
    assert "cannot read test data" in every.tests[1].message
    assert [test.verdict for test in stopped.tests] == [Verdict.AC, Verdict.IE, None, None]


def test_a_skipped_test_sent_ahead_is_not_waited_for(tmp_path: Path):
    """A solution wrong on its first test that sleeps on the second (sent ahead while the first ran):
    the stop on failure skips the second without waiting for its idle limit (2 x 20 s + 1 s here: far
    beyond the bound below, which a busy machine's slower grading stays under; helper-44 saw 2.3 s at
    load 40 against the 1.5 s bound there was with a 3 s idle limit)."""
    solution = tmp_path / "wrong_then_sleeps.py"
    solution.write_text("import time\na, b = map(int, open(0).read().split()[1:])\n"
                        "while a == 2:\n    time.sleep(1)\nprint(a + b + 1)\n")
    problem, tests, _ = _stdin_tests((1, 1), (2, 2), (3, 3))
    problem = replace(problem, time_limit=20)
    with Pool(1) as pool:
        started = time.monotonic()
        [result] = pool.grade([SolutionRun(problem, solution, tests, stop_on_failure=True)])
        took = time.monotonic() - started
    assert [test.verdict for test in result.tests] == [Verdict.WA, None, None]
    assert took < 20, f"{took:.2f} s"  # (waited for: over 41 s)


def test_a_test_is_not_taken_ahead_from_an_idle_worker(tmp_path: Path, monkeypatch):
    """Two slow tests at -j2: the first worker thread must not take the second test ahead while the
    second thread, started meanwhile, finds no test left (it ran them one after the other, 1.27 s
    against 0.85 s for two tests of 0.6 s of CPU)."""
    answered_by: list[int] = []
    real_answer = Worker.answer

    def answer(worker, timeout=None):
        answered_by.append(id(worker))
        return real_answer(worker, timeout)

    monkeypatch.setattr(Worker, "answer", answer)
    solution = tmp_path / "slow.py"
    solution.write_text("import time\na, b = map(int, open(0).read().split()[1:])\nstarted = time.process_time()\n"
                        "while time.process_time() - started < 0.5:\n    pass\nprint(a + b)\n")
    problem, tests, _ = _stdin_tests((1, 1), (2, 2))
    with Pool(2) as pool:
        [result] = pool.grade([SolutionRun(problem, solution, tests, stop_on_failure=True)])
    assert result.verdict is Verdict.AC
    assert len(set(answered_by)) == 2


def test_a_worker_lost_with_a_request_sent_ahead_is_replaced_and_both_tests_sent_again(monkeypatch):
    """The zygote dies while the next test's request waits in its pipe: the test is retried on a new
    zygote and the next one sent to it again, every answer still its own test's."""
    killed: list[int] = []
    real_answer = Worker.answer

    def answer(worker, timeout=None):
        if not killed:
            killed.append(worker.process.pid)
            worker.process.kill()
            worker.process.wait()
        return real_answer(worker, timeout)

    monkeypatch.setattr(Worker, "answer", answer)
    problem, tests, solution = _stdin_tests((1, 2), (3, 4), (5, 6), (7, 8))
    with Pool(1) as pool:
        [result] = pool.grade([SolutionRun(problem, solution, tests, stop_on_failure=False)])
    assert len(killed) == 1
    assert [test.verdict for test in result.tests] == [Verdict.AC] * 4


def test_a_next_test_of_another_run_is_not_looked_up_among_this_runs_tests():
    """The next job belongs to another run with more tests: its index is into that run's tests. It was
    looked up in this run's first (IndexError: IE 'internal error' on this run's test, seen on a
    package's two time-limit runs of 1 and 5 tests at -j2)."""
    problem = load_problem(ADDER)
    short = SolutionRun(problem, ACCEPTED, problem.tests[:1], stop_on_failure=True)
    longer = SolutionRun(problem, ACCEPTED, problem.tests, stop_on_failure=True)
    pool = Pool(1)
    pool._cpus = [None]
    pool._slot.jobs, pool._slot.ahead, pool._slot.sent = queue.SimpleQueue(), (longer, 3), None
    pool._send_ahead(None, short)  # (not sent: another run's test; nothing is asked of the worker)
    assert pool._slot.sent is None and pool._slot.ahead == (longer, 3)
