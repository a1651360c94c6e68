"""The pool: schedule tests of many solutions on workers, one thread per worker (the tests come from
engine/feed.py: one grading's runs, or runs handed in while others are graded).

Tests of one solution are handed out in order, so with `stop_on_failure` the first failing test is the
same whatever the number of workers: every test before it has been dispatched and will complete.
"""

from __future__ import annotations

import os
import queue
import select
import sys
import threading
import time
from typing import Callable

from .. import languages
from ..problems.format import TestCase
from ..protocol import SOURCE_LIMIT
from ..record import replace
from ..verdicts import Verdict
from .feed import Feed, Tests
from .judging import answer_result, input_text, judge_load, judge_test, returned_text, score_test
from .results import GradeResult, TestResult, verdict_only
from .runstate import SolutionRun
from .spares import Spares
from .overload import Gate, Overloaded
from .worker import Worker, WorkerDied, close_workers

FEED_BUILDERS_PER_WORKER = 2  # (Pool._feed_builders)


TestCallback = Callable[[SolutionRun, int, TestResult], None]  # verdict None: the test is skipped
DoneCallback = Callable[[GradeResult], None]


# Every worker but the first takes its first test this long after the first worker has its zygote:
# a grading that the first one finishes meanwhile (a few examples: 5 trivial tests take 20 ms)
# never pays for another zygote's start (50-150 ms of CPU, which competes with the judge's own on a
# 2-core machine); a longer one loses this much of the other workers' time.
LATER_WORKERS_AFTER = 0.05
# ... and only when the tests left would take the first worker longer than another zygote's start
# costs at its rate so far: at -j2 on 2 cores, 20 trivial tests (60 ms in all) were 5% slower than at
# -j1, the second zygote's start competing with the first worker for the CPUs it would save.
ZYGOTE_START = 0.1  # seconds of CPU a zygote takes to start (an interpreter and the kernel layers), roughly
# A test's request is sent ahead, before the answer to the one before is read and judged, only when it
# fits in a pipe whatever its capacity: the judge's write then never waits for a zygote that is itself
# waiting to write a long answer the judge has not read yet.
AHEAD_CAP = select.PIPE_BUF
# A test that could not get a CPU for the overload bound (verdicts.decide's "machine overloaded") is the
# machine's fault, not the solution's: it is graded again this many times, alone (see Gate), before it is IE,
# each time with OVERLOAD_PATIENCE times the bound before (30 s, 120 s, 480 s for a 2 s limit): a machine
# four times as busy as the bound allows costs time, not the verdict.
OVERLOAD_RETRIES, OVERLOAD_PATIENCE = 2, 4.0


class Pool:
    """N workers grading tests of a list of solutions; one thread per worker talks to its zygote."""

    def __init__(self, jobs: int, python: str = sys.executable, confine: bool = True,
                 source_limit: int = SOURCE_LIMIT, spares: Spares | None = None):
        """`spares`: zygotes started ahead (with this python and confine), taken before any is started."""
        if spares is not None and (spares.python, spares.confine) != (python, confine):
            raise ValueError("spare zygotes must run the pool's interpreter with the pool's confinement")
        self.spares = spares
        self.jobs = max(1, jobs)
        self.python = python
        self.confine = confine
        self.source_limit = source_limit  # bytes; a larger source is CE
        self._workers: list[Worker] = []
        self.warnings: set[str] = set()  # what workers said about missing isolation
        self._workers_lock = threading.Lock()
        self._callback_lock = threading.Lock()
        self._callback_error: BaseException | None = None  # raised by grade() once the workers stop
        self._cancelled = threading.Event()
        self._slot = threading.local()  # per worker thread: its index in _cpus
        self._cpus: list[int | None] = []  # per worker thread of a grading: the CPU its zygotes are pinned to
        self._first_cpu: int | None = None  # the first thread's, once a second one starts
        self._first_workers: list[Worker] = []  # the first thread's zygotes in this grading
        self._first_worker = threading.Event()  # a grading's first worker has its zygote
        self._on_started: Callable[[], None] | None = None  # the grading's on_started
        self._killed_workers = False  # a worker discarded during the grading did not end on its own
        self._no_jobs_left = threading.Event()  # a worker found the queue empty, or the grading was cancelled
        self._tests_done = 0  # tests of the grading done so far (a later worker's start is weighed by them)
        self._first_test_at = 0.0  # when its first test was done (time.monotonic): the rate counts from there
        self._gate = Gate()
        self._patience = 1.0  # the overload bound's factor for the zygotes loaded from now on (OVERLOAD_PATIENCE)
        self._running: dict[int, tuple[SolutionRun, int, Worker]] = {}  # per thread: the test its zygote runs

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, kind, *exc) -> None:
        if kind is not None:  # interrupted or failed: the tests in flight die with their workers, unseen
            self._cancelled.set()
        self.close()

    def close(self) -> None:
        with self._workers_lock:
            close_workers(self._workers, stale=self._killed_workers)  # (discarded ones left their cgroups)
            self._workers.clear()
            self._killed_workers = False

    def cancel(self) -> None:
        """Hand out no more tests and kill the running ones: for a grading nobody waits for any more."""
        self._cancelled.set()
        self._no_jobs_left.set()
        self.close()

    def grade(self, runs: list[SolutionRun], on_test: TestCallback | None = None,
              on_done: DoneCallback | None = None, on_started: Callable[[], None] | None = None) -> list[GradeResult]:
        """Grade `runs`; `on_test` after each test, `on_done` after each run, `on_started` when a worker has
        its zygote and is about to load a solution (from then on the judge mostly waits)."""
        jobs = Tests(runs)
        self._grade(jobs, min(self.jobs, max(1, jobs.qsize())), on_test, on_done, on_started, runs)
        return [run.result() for run in runs]

    def feed(self, feed: Feed) -> None:
        """Grade the tests `feed` hands out, on all `jobs` workers, until it closes: runs handed in while
        others are graded (judge serve's)."""
        self._grade(feed, self.jobs, feed.on_test, None, None)

    def _grade(self, jobs: Tests | Feed, count: int, on_test: TestCallback | None, on_done: DoneCallback | None,
               on_started: Callable[[], None] | None, runs: list[SolutionRun] = ()) -> None:
        """Take `jobs` on `count` worker threads until none is left; a callback's failure is raised.
        `runs`: those whose programs are compiled ahead (_builders)."""
        self._on_started = on_started
        cpus = sorted(os.sched_getaffinity(0))
        # With several workers, each has a CPU of its own (as CMS and isolate pin theirs); the first
        # one's is taken when a second starts: until then its zygote and children overlap on every CPU,
        # as at -j1 (20 trivial tests at -j2 took 0.29 s against 0.25 s at -j1, one worker pinned alone)
        self._cpus = [cpus[i % len(cpus)] if count > 1 else None for i in range(count)]
        self._first_cpu, self._cpus[0] = self._cpus[0], None
        self._first_workers = []
        threads = [threading.Thread(target=self._work, args=(jobs, on_test, on_done, i), daemon=True)
                   for i in range(count)]
        self._first_worker.clear()
        self._no_jobs_left.clear()
        self._tests_done = 0
        builders = self._builders(list(runs), count) + self._feed_builders(jobs, count)
        for thread in threads + builders:
            thread.start()
        try:
            for thread in threads + builders:
                thread.join()
        except BaseException:  # Ctrl-C: the tests in flight are neither results nor the solutions' fault
            self.cancel()
            raise
        if self._callback_error is not None:  # e.g. BrokenPipeError: whoever reads the output has gone
            error, self._callback_error = self._callback_error, None
            raise error

    def _builders(self, runs: list[SolutionRun], count: int) -> list[threading.Thread]:
        """Threads that compile the runs' programs ahead, in the order their tests are handed out, one per
        worker thread: a worker whose next test's program is being compiled waited for it (the lock of
        its run) with nothing to do, so the compiles of a package's submissions ran one after the other
        on one core (a compile is not a test: -j counts tests). None for a single run."""
        waiting = [run for run in runs if not run.built and not run.answers]
        if len(waiting) < 2:
            return []
        order: queue.SimpleQueue = queue.SimpleQueue()
        for run in waiting:
            order.put(run)

        def build() -> None:
            while not self._cancelled.is_set():
                try:
                    run = order.get_nowait()
                except queue.Empty:
                    return
                with run.lock:
                    if not run.built and run.load_outcome is None:
                        self._build(run)

        return [threading.Thread(target=build, daemon=True) for _ in range(min(count, len(waiting)))]

    def _feed_builders(self, jobs: Tests | Feed, count: int) -> list[threading.Thread]:
        """For a feed that builds apart: FEED_BUILDERS_PER_WORKER x `count` threads that build each run
        handed in, beside the worker threads (a compile is not a test, and holds none of their places),
        until the feed closes. More than the workers: a compile is not cut short, and a team whose compile
        burns its 30 s of CPU holds a builder that long (one each: a team has one submission graded at a
        time), so N such teams leave the other N builders to everyone else; not one per submission graded,
        as each compile may take its 2 GiB (CompileLimits). Beside them, the light builder builds only the
        runs whose build takes a moment (Python's): those never wait for a compile to end; and `count`
        spare builders, each for a team that has had less of the machine than every team whose compile
        holds a builder long (Feed.take_build): 2N teams' compiles just under their bounds hold the others."""
        if not getattr(jobs, "builds_apart", False):
            return []

        def build(light_only: bool, spare: bool) -> None:
            while (run := jobs.take_build(light_only, spare)) is not None:
                try:
                    with run.lock:
                        if not run.built and run.load_outcome is None:
                            self._build(run)  # (whatever fails in it is the run's IE)
                finally:
                    jobs.built(run)

        kinds = [("feed builder", False, False)] * (FEED_BUILDERS_PER_WORKER * count) + [
            ("feed light builder", True, False)] + [("feed spare builder", False, True)] * count
        return [threading.Thread(target=build, args=(light_only, spare), name=name, daemon=True)
                for name, light_only, spare in kinds]

    def _callback(self, function: Callable, *args) -> None:
        """Call a progress callback under the lock; its failure stops the grading (not only the
        worker thread it ran on) and is raised by grade()."""
        with self._callback_lock:
            if self._callback_error is None and not self._cancelled.is_set():
                try:
                    function(*args)
                except BaseException as err:
                    self._callback_error = err

    def _work(self, jobs: Tests | Feed, on_test: TestCallback | None, on_done: DoneCallback | None,
              index: int) -> None:
        """Worker thread `index`; self._cpus[index]: the CPU its zygotes (and so their children) are
        pinned to. Each child is held to one CPU; without a CPU per worker, two tests could share a
        core while the other idles. A later one (index > 0) starts as LATER_WORKERS_AFTER says, and
        pins the first one's zygotes then."""
        self._slot.index = index
        try:
            if index == 0:
                self._take_jobs(jobs, on_test, on_done)
            elif self._first_worker_settled(jobs):
                self._pin_first_workers()
                self._take_jobs(jobs, on_test, on_done)
        finally:
            if index == 0:  # it made no worker (a submit-answer's, or every test skipped): the others go on
                self._first_worker.set()

    def _pin_first_workers(self) -> None:
        """The first worker thread's zygotes go to their own CPU, now that another worker shares the machine."""
        with self._workers_lock:
            if self._cpus[0] is None and self._first_cpu is not None:
                self._cpus[0] = self._first_cpu
                for worker in self._first_workers:
                    worker.pin(self._first_cpu)

    def _first_worker_settled(self, jobs: Tests | Feed) -> bool:
        """Wait until the first worker has its zygote, then LATER_WORKERS_AFTER; False, at once, when
        the grading is cancelled or the other workers have taken every test (a grading's end never
        waits for a later worker's timer), and False when the tests left would be done sooner than
        another zygote starts (ZYGOTE_START) at the rate the first worker has kept since its first test
        (asked again every LATER_WORKERS_AFTER: a slow test that comes later slows that rate, and starts
        it). Counted from the grading's start, the rate took in the first test's load and compile: 20
        trivial tests, 6 done in 56 ms, looked like 120 ms of work left, and -j2 started a zygote
        that cost more than the tests it took."""
        while not self._first_worker.wait(0.05):
            if self._no_jobs_left.is_set():
                return False
        while not self._no_jobs_left.wait(LATER_WORKERS_AFTER):
            done = self._tests_done  # the rate from the first test's end on: its load and compile are done once
            if done < 2 or jobs.qsize() * (time.monotonic() - self._first_test_at) / (done - 1) > ZYGOTE_START:
                return True
        return False

    def _take_jobs(self, jobs: Tests | Feed, on_test: TestCallback | None, on_done: DoneCallback | None) -> None:
        worker = None
        slot = self._slot
        slot.jobs, slot.ahead, slot.sent, slot.inside = jobs, None, None, False  # see _send_ahead, Gate
        try:
            while self._callback_error is None and not self._cancelled.is_set():
                if slot.ahead is not None:
                    (run, index), slot.ahead = slot.ahead, None
                else:
                    job = jobs.take()
                    if job is None and jobs.open:  # a feed: the next run handed in, this run's zygote ended
                        self._discard(worker)
                        worker = None
                        job = jobs.take(wait=True)
                    if job is None:
                        self._no_jobs_left.set()
                        self._discard(worker)  # ended now, idle, it cleans up after itself (see _discard)
                        return
                    run, index = job
                try:
                    worker = self._run_job(worker, run, index, on_test)
                finally:
                    if slot.sent is None:  # (a request sent ahead keeps the thread inside: it runs already)
                        self._leave_gate()
                    with run.lock:
                        run.pending -= 1
                        finished = run.pending == 0
                    if finished and on_done:
                        self._callback(on_done, run.result())
        finally:
            if slot.inside:
                slot.inside = False
                self._gate.leave()

    def _run_job(self, worker: Worker | None, run: SolutionRun, index: int,
                 on_test: TestCallback | None) -> Worker | None:
        test = run.tests[index]
        if run.skips(index):  # decided before starting or loading anything for it (or, if sent ahead, before judging it)
            worker = self._drop_sent_ahead(worker, run, index)
            self._report_skipped(run, index, on_test)
            return worker
        if run.answers:
            self._record(run, index, answer_result(test, run.problem, run.solution), on_test)
            return worker
        lost: list[str] = []  # why each worker died under this test
        overloads = 0  # times the machine could not give this test a CPU
        while True:
            self._enter_gate()
            try:
                if worker is not None and worker.served not in (None, run.key):
                    self._discard(worker)  # a worker serves one solution: nothing of one reaches the next
                    worker = None
                worker = worker or self._new_worker()
                result = self._run_test(worker, run, index)
            except WorkerDied as err:  # the zygote, not the solution, was lost: once may be transient
                self._discard(worker)
                worker = None  # a retry, or the next job, starts a new one
                if run.skips(index):  # ended by _abandon_skipped: a test before it failed meanwhile
                    self._report_skipped(run, index, on_test)
                    return None
                lost.append(str(err))
                if self._cancelled.is_set():  # cancel() killed it: not a result, and never shown
                    result = TestResult(test.name, Verdict.IE, message="the grading was cancelled")
                elif len(lost) < 2:
                    continue
                else:
                    result = TestResult(test.name, Verdict.IE,
                                        message=f"the worker died twice: {lost[0]}; again: {lost[1]}")
            except Overloaded as err:  # the machine's fault: again, alone, before it is the verdict
                self._discard(worker)  # (with any request sent ahead to it: the retry starts clean)
                worker = None
                overloads += 1
                self._leave_gate()
                self._gate.back_off()
                if overloads <= OVERLOAD_RETRIES and not self._cancelled.is_set():
                    self._patience = max(self._patience, OVERLOAD_PATIENCE ** overloads)
                    continue
                result = err.result
                result.message += (f" (graded {overloads} times, the last {overloads - 1} with no other test "
                                   f"of this run beside it and {self._patience:g}x the bound)")
                if err.loading:  # every test of the run: none can run without the solution loaded
                    run.load_outcome, result = (Verdict.IE, result.message), None
            except Exception as err:  # a fault of the judge itself: reported on this test, grading goes on
                result = TestResult(test.name, Verdict.IE, message=f"internal error: {type(err).__name__}: {err}")
            break
        if result is None:  # the solution does not load: nothing ran
            self._report_skipped(run, index, on_test)
            return worker
        self._record(run, index, result, on_test)
        return worker

    def _enter_gate(self) -> None:
        if not self._slot.inside:
            self._gate.enter()
            self._slot.inside = True

    def _leave_gate(self) -> None:
        if self._slot.inside:
            self._slot.inside = False
            self._gate.leave()

    def _record(self, run: SolutionRun, index: int, result: TestResult, on_test: TestCallback | None) -> None:
        self._tests_done += 1  # (a count for a heuristic: a lost increment between threads costs nothing)
        if self._tests_done == 1:
            self._first_test_at = time.monotonic()
        if run.verdicts_only:
            result = verdict_only(result)
        run.record(index, result)
        if run.stop_on_failure and run.first_failure == index or run.unread is not None and result.verdict is not Verdict.AC:
            self._abandon_skipped(run)
        if on_test:
            self._callback(on_test, run, index, result)

    def _abandon_skipped(self, run: SolutionRun) -> None:
        """Kill the zygotes (and so the children) running the run's tests that no longer count (after its
        first failure; after a rejection in a group that stops there): they ran on to their limits (a
        TLE submission's 14 s on excursion: issue 48)."""
        for worker in [w for other, index, w in list(self._running.values()) if other is run and run.skips(index)]:
            worker.process.kill()

    def _run_test(self, worker: Worker, run: SolutionRun, index: int) -> TestResult | None:
        """One test on this worker (None when the solution does not load); raises WorkerDied."""
        test = run.tests[index]
        sent, self._slot.sent = self._slot.sent, None  # (sent to a worker that died since: sent again)
        try:
            if not self._ensure_loaded(worker, run):
                return None
        except Overloaded as err:  # (the load's IE, made this test's to be retried as one)
            raise Overloaded(replace(err.result, name=test.name), loading=True) from None
        awarded = None  # what the answer check awarded besides the verdict (a validator's score files)
        if run.problem.kind.multi_pass:
            from .passes import run_passes  # (with the output validator's code: only for the kinds that use it)

            facts, (verdict, message), awarded = run_passes(worker, run.problem, test)
        elif run.problem.kind.interactive:
            from .passes import interactive_test

            facts, (verdict, message), awarded = interactive_test(worker, run.problem, test)
        else:
            if not _sent_to(sent, worker, run, index):
                self._send_test(worker, run, test)
            self._send_ahead(worker, run)
            self._running[threading.get_ident()] = (run, index, worker)  # (one thread's key: no lock needed)
            try:
                facts = worker.answer()
            finally:
                del self._running[threading.get_ident()]
            verdict, message, awarded = judge_test(test, facts, run.problem)
        verdict, message, score = score_test(test, verdict, message, awarded)
        failed = verdict is not Verdict.AC  # a failing test keeps what explains it: input and output
        result = TestResult(test.name, verdict, facts.cpu * 1000, facts.wall * 1000, facts.memory_mib, message,
                            returned_text(facts), input_text(test) if failed else "", facts.output if failed else "",
                            score)
        if facts.ended == "overloaded" and verdict is Verdict.IE:
            raise Overloaded(result)
        return result

    @staticmethod
    def _send_test(worker: Worker, run: SolutionRun, test: TestCase, cap: int | None = None) -> bool:
        if run.problem.kind.program:
            return worker.send_test(data=test.input.read(), cap=cap)
        return worker.send_test(args=test.args, cap=cap)

    def _send_ahead(self, worker: Worker, run: SolutionRun) -> None:
        """Take this thread's next test now and, when it is another plain test of the same solution, send
        its request before this test's answer is read: the zygote starts it when done with this one, not
        after the judge has read, judged and recorded it (0.4 ms per trivial test at -j1, 0.8 ms at -j2).
        Its answer is read at its turn (dropped if then skipped: _drop_sent_ahead). Never the last tests
        of a grading at -j > 1, which another worker thread may be idle to take."""
        slot = self._slot
        if self._gate.limit is not None:  # backed off: one test at a time, none waiting in a zygote
            return
        if slot.ahead is None:
            slot.ahead = slot.jobs.take_ahead(run, len(self._cpus))  # (see Tests.take_ahead, Feed.take_ahead)
            if slot.ahead is None:
                return
        following, index = slot.ahead
        if following is not run:  # (its index is into its own tests, not this run's)
            return
        kind, test = run.problem.kind, run.tests[index]
        if kind.multi_pass or kind.interactive or run.skips(index):
            return
        if kind.program and not 0 <= test.input.size() <= AHEAD_CAP * 3 // 4:  # (base64: 4 bytes for 3)
            return  # (an input that cannot be read fails at its own turn, not this test's)
        try:
            sent = self._send_test(worker, run, test, cap=AHEAD_CAP)
        except WorkerDied:
            raise
        except Exception:  # the next test's fault (an input stat() sees but read() cannot): its own turn
            return  # raises it again, while this test's answer, already asked for, is read as it should be
        if sent:
            slot.sent = (worker, run, index)

    def _drop_sent_ahead(self, worker: Worker | None, run: SolutionRun, index: int) -> Worker | None:
        """Read and drop the answer to this test's request if it was sent ahead; the worker, or None if it
        died. One that takes longer than a new zygote's start is not waited for: the zygote is killed (its
        child with it), as a skipped test that ran to its limits cost the grading that long."""
        sent, self._slot.sent = self._slot.sent, None
        if worker is None or not _sent_to(sent, worker, run, index):
            return worker
        try:
            worker.answer(timeout=ZYGOTE_START)
        except WorkerDied:
            self._discard(worker)
            return None
        return worker

    def _report_skipped(self, run: SolutionRun, index: int, on_test: TestCallback | None) -> None:
        """A test that will not run is done for the progress: its callback gets a result without a verdict."""
        if on_test:
            self._callback(on_test, run, index, TestResult(run.tests[index].name, None))

    def _ensure_loaded(self, worker: Worker, run: SolutionRun) -> bool:
        """Load the solution into this worker; the first worker to see it also checks that it loads."""
        if worker.loaded_key == run.key:
            return True
        problem = run.problem
        with run.lock:
            if run.load_outcome is not None:
                return False
            if not run.built and not self._build(run):
                return False
            # a method's class is looked for; a Python program is compiled (a compiled language was built)
            check = not run.load_checked and (not problem.kind.program or run.program is None)
            response = worker.load(run.key, run.solution, problem.class_name, problem.method,
                                   problem.time_limit, problem.memory_limit, check=check, mode=problem.kind.mode,
                                   source_limit=self.source_limit, program=run.program,
                                   output_limit_mib=problem.output_limit,
                                   protect=languages.project_folders(problem.path), fields=run.load_fields,
                                   patience=self._patience)
            run.load_checked = True
            run.baseline_mib = worker.baseline_kib / 1024
            if not response["ok"]:
                run.load_outcome = (Verdict.CE, response["compile_error"])
            elif check:
                run.load_outcome = judge_load(response["facts"], problem)
                waited = run.load_outcome and run.load_outcome[0] is Verdict.IE and response["facts"].ended == "overloaded"
                if waited:  # the machine's fault: loaded again, as a test is graded again
                    (_, message), run.load_outcome, run.load_checked = run.load_outcome, None, False
                    raise Overloaded(TestResult("", Verdict.IE, message=message))
            return run.load_outcome is None

    def _build(self, run: SolutionRun) -> bool:
        """Compile a solution in a compiled language, once per run (cached across runs); with the lock held."""
        run.built = True
        language = languages.for_path(run.solution)
        try:
            run.program = language.program(run.solution, run.problem, self.source_limit)
            run.load_fields = language.load_fields(run.solution, run.problem, self.source_limit)
        except languages.CompileError as err:
            run.load_outcome = (Verdict.CE, str(err))
        except (languages.ToolchainMissing, languages.BuildFault, OSError) as err:  # (OSError: a cache it cannot write)
            run.load_outcome = (Verdict.IE, str(err))
        except Exception as err:  # noqa: BLE001 - the judge's bug: this run's IE (breaker 54c F4: an AttributeError
            # ended the thread that built it, and the C++ file, marked built, was then loaded as Python)
            run.load_outcome = (Verdict.IE, f"the judge failed to build it: {type(err).__name__}: {err}")
        return run.load_outcome is None

    def _new_worker(self) -> Worker:
        if self._cancelled.is_set():
            raise WorkerDied("the grading was cancelled")
        index = self._slot.index
        cpu = self._cpus[index]
        worker = self.spares.take(cpu) if self.spares else Worker(self.python, self.confine, cpu=cpu)
        with self._workers_lock:
            self._workers.append(worker)
            self.warnings.update(worker.warnings)
            if index == 0:
                self._first_workers.append(worker)
                if self._cpus[0] is not None and cpu is None:  # pinned while it started
                    worker.pin(self._cpus[0])
        self._first_worker.set()
        if self._on_started:
            self._callback(self._on_started)
        return worker

    def _discard(self, worker: Worker | None) -> None:
        """End `worker` and forget it. A worker thread ends its zygote so before the thread ends: a
        zygote dies with the thread that started it (PR_SET_PDEATHSIG), killed before it can remove its
        cgroups (left to remove_stale_cgroups) or end its template (left to init)."""
        if worker is None:
            return
        with self._workers_lock:
            if worker in self._workers:
                self._workers.remove(worker)
        if not worker.close():
            self._killed_workers = True


def _sent_to(sent: tuple | None, worker: Worker, run: SolutionRun, index: int) -> bool:
    """Whether `sent` (a thread's (worker, run, index) sent ahead) is this test's request on this worker."""
    return sent is not None and sent[0] is worker and sent[1] is run and sent[2] == index
