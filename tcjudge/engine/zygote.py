"""The trusted worker: runs every test of a solution in a fresh, confined child it forks.

It is started as a fresh interpreter by the judge (never forked from it, so it holds no expected
outputs) and never runs solution code itself: only its forked children do. What it reports about a
child comes from the kernel (wait4's rusage, the child's CPU clock, the exit status) and from two
pipes (the child's result channel and its captured output), so nothing the solution does can change
the facts the judge sees. It speaks JSON lines on stdin/stdout and imports only the standard library,
tcjudge.protocol and tcjudge.engine (sandbox/ among it).

A child is forked ahead of its test (a "spare", forked as soon as the previous test has its
arguments): it sets its limits, confines itself and loads the solution, then waits for its
arguments on a pipe. Only the call itself is left on the test's critical path.

What it says and hears is defined in tcjudge.protocol (the requests, the limit rules, the caps and
the child's descriptors); what a child runs is in engine/child.py (the confined side), how it is
watched in engine/watch.py.

Compiled languages ("program" in the load request, built by tcjudge.languages): the zygote compiles
nothing; the child, once limited and confined with the program's sandbox profile, execs the
program, which speaks the same protocol on the same descriptors (or, with "stdio", reads the
arguments on 0 and writes the result on 1). A program that says "ready" first (the JVM) is charged
only the CPU time it uses after that line; a serving one's later tests, all it uses after the test
before ended. See Program, child._exec_program and docs/languages.md.

Standard-input mode ("mode": "stdin" in the load request, no class or method): the program is run as
`__main__`, the test's input (`{"op": "run", "input": base64}`) arrives on its descriptor 0
through the same pipe that carries a method's arguments, and what it writes on descriptor 1 comes
back as "answer" (base64: any bytes, a third larger), up to the problem's output limit (at most ANSWER_CAP bytes). Descriptor 2 is the
captured "output" as for a method. The spare child loads nothing before its input starts to arrive:
it is forked and confined ahead, and runs the program once descriptor 0 is readable. A compiled
program needs nothing else: exec'd in the child with the same descriptors, it ends with its exit
status (0, with no result line, is a normal end; judge_program reads it the same way).
"""

from __future__ import annotations

import base64
import gc
import json
import math
import os
import select
import signal
import sys
import time

from ..protocol import ARGS_FD, CRASH_CAP, CRASH_FD, OUTPUT_CAP, REPORT_CAP, RESULT_FD, SourceError
from . import child as child_side
from .solution import Program, Solution
from .template import Templates
from .processes import PR_SET_CHILD_SUBREAPER, die_with_parent, kill_group, prctl, reap_orphans, sched_getcpu
from . import interaction
from .preparation import baseline_kib, hold_child_descriptors, load_confinement, open_cgroups, vm_data_bytes
from .tree import Tree, bounded
from .watch import Activity, Child, await_ready, drain, live_usage, process_cpu_clock, reset_peak

RUNQUEUE_GRACE = 0.01  # seconds to wait for a runnable child's queued wait to show in its statistics
WARM_GROWTH_KIB = 32 << 10  # a serving runtime that holds this much more than when it first was ready retires
NEXT_LINE = b"next\n"  # to a serving runtime, once its test's figures are read: get ready for another


class Zygote:
    def __init__(self, confinement, devnull: int, project_root: str = "/", cgroups=None):
        self.confinement = confinement
        self.project_root = project_root
        self.cgroups = cgroups  # sandbox.cgroup.Cgroups, or None: rlimits alone bound a test
        self.slots: dict = {}  # child pid -> its cgroup, removed once the child is reaped
        self.nproc: int | None = None  # RLIMIT_NPROC for children when there is no pids cgroup
        self.solution: Solution | None = None
        self.devnull = devnull
        self.pid = os.getpid()
        self.data_baseline = vm_data_bytes()
        self.spare: Child | None = None  # the next test's child, forked while the judge was busy
        self.warm: Child | None = None  # a serving runtime that has run a test and can take the next
        self.ending: list[int] = []  # children killed after returning, reaped once the answer is out
        self.templates = Templates()  # who forks the children once the state they inherit is settled

    # -- requests -------------------------------------------------------------------------------

    def load(self, request: dict) -> dict:
        self.discard_waiting()
        self.templates.retire()
        self._close_program_confinement()
        if self.solution is not None and self.solution.code is not None:
            self.solution.code.close()
        try:
            self.solution = Solution(request, self.confinement)
        except SourceError as err:
            self.solution = None
            return {"ok": False, "compile_error": str(err)}
        except OSError as err:
            self.solution = None
            return {"ok": False, "compile_error": f"cannot read the file: {err.strerror}"}
        program = self.solution.program
        self.solution.processes = bounded(self.solution.processes, self.cgroups)  # else one process (fork denied)
        protected = [str(path) for path in request.get("protect", [])]  # the problem's project folders
        if self.confinement is not None and (program is not None or self.solution.processes
                                             or any(map(self.confinement.reaches, protected))):
            # a compiled program's or a tree's own layers, or a project beneath a folder the interpreter reads
            held = hold_child_descriptors(self.devnull)  # the layers' descriptors must not be 3 or 4
            try:
                self.solution.confinement, problems = load_confinement(
                    [self.project_root, *protected], program.readable if program else [],
                    program.profile if program else "python", self.solution.processes)
            finally:
                for fd in held:
                    os.close(fd)
            if problems:  # the interpreter's layers were prepared here: these should be too
                self.solution = None
                raise RuntimeError("; ".join(problems))
        if self.cgroups is None and os.geteuid() != 0:  # (root ignores RLIMIT_NPROC)
            from tcjudge.engine.sandbox.cgroup import MAX_TASKS, tasks_of_uid

            self.nproc = tasks_of_uid(os.getuid()) + MAX_TASKS
        gc.collect()
        gc.freeze()  # children then leave the zygote's objects alone: fewer copied pages per fork
        self.data_baseline = vm_data_bytes()
        response = {"ok": True}
        if request.get("check") and (not self.solution.stdin_mode or self.solution.program is None):
            # a method's class is looked for; a Python program is compiled only, none of its code runs,
            # so that a compile error comes from this step alone, never from a test's result channel
            self.solution.compile_only = self.solution.stdin_mode
            try:
                response["facts"] = self.run_child(None)
            finally:
                if self.solution.compile_only:  # a spare forked meanwhile would only compile too
                    self.solution.compile_only = False
                    self.discard_spare()
        return response

    def run(self, request: dict) -> dict:
        if self.solution is None:
            raise RuntimeError("run before a successful load")
        if self.solution.interactive:
            return self.run_child(b"", request["interactor"])  # no input: closing the gate starts it
        if self.solution.stdin_mode:
            return self.run_child(base64.b64decode(request["input"]))
        return self.run_child(request["args"])

    def prepare_spare(self) -> None:
        """Fork the next test's child now, while the current one runs: fork, confinement and
        loading the solution then happen off the critical path of the next test."""
        if self.solution is not None and self.spare is None and self.warm is None:
            self.spare = self._fork()

    def _close_program_confinement(self) -> None:
        """Release the layers prepared for the previous compiled program (its Landlock ruleset)."""
        if self.solution is not None and self.solution.confinement not in (None, self.confinement):
            self.solution.confinement.close()

    def discard_spare(self) -> None:
        if self.spare is not None:
            self.spare.discard()
            self.spare = None

    def discard_waiting(self) -> None:
        """End the children that wait for a test: the spare and the warm runtime."""
        self.discard_spare()
        if self.warm is not None:
            self.warm.discard()
            self.warm = None

    def _waiting_children(self) -> set[int]:
        return set(self.ending) | {child.pid for child in (self.spare, self.warm) if child is not None} \
            | self.templates.pids()

    # -- one child ------------------------------------------------------------------------------

    def run_child(self, args: list | bytes | None, interactor: dict | None = None) -> dict:
        """Hand one test's arguments (None: only load; bytes: a stdin program's input) to a child,
        or start its `interactor`, watch it until it ends, report.

        A child that has written its whole result line is done: its CPU time and peak memory are
        read from the kernel there and then, it is killed, and it is reaped after the answer has
        gone out (see finish), so the kernel's tear-down of its memory is off the critical path.
        """
        child, start_cpu, not_ready = self._child_for_test()
        if not_ready:
            return self._never_ready(child, not_ready)
        other = None
        if interactor is not None:
            cpus = {child.cpu} if child.cpu >= 0 else os.sched_getaffinity(0)
            other = interaction.spawn(interactor, child.interaction, cpus, self.pid, self.devnull)
            child.interaction = None
        started = time.monotonic()
        kept = False
        try:
            feed = args if isinstance(args, bytes) else json.dumps(args).encode()
            if self._serves():
                feed += b"\n"
            ended, report, truncated, output, usage, answer, activity = self._watch(child, started, feed, start_cpu,
                                                                                   other)
            kept = ended == "returned" and self._keeps(child, report, truncated, usage)
        finally:
            if not kept:
                kill_group(child.pid)
            if other is not None:  # it sees the program's pipes close; it has this long to decide
                other.wait(float(interactor["wall_limit"]))
        if ended == "returned":
            status = None
            cpu, peak_kib = usage
            if child.ready_kib is not None:  # a serving runtime: its memory at its first start, and this test's growth
                peak_kib = child.base_kib + max(0, peak_kib - child.ready_kib)
            if kept:
                self.warm, child.ended_cpu = child, usage[0]
            else:
                self.ending.append(child.pid)
        else:
            _, status, rusage = os.wait4(child.pid, 0)
            ended = ended or ("signaled" if os.WIFSIGNALED(status) else "exited")
            cpu, peak_kib = rusage.ru_utime + rusage.ru_stime, rusage.ru_maxrss
        if activity.tree is not None:  # the whole tree's, the processes it forked included
            cpu = max(cpu, activity.tree.last)
        crash = child.crash(CRASH_CAP) if ended == "signaled" else b""  # it is dead: all it wrote is there
        cpu = max(0.0, cpu - start_cpu)
        wall = time.monotonic() - started
        setup_error = None if kept else child.setup_error()
        if not kept:
            child.close()
        return {
            "ended": ended,
            "exit_code": os.WEXITSTATUS(status) if status is not None and os.WIFEXITED(status) else None,
            "signal": os.WTERMSIG(status) if status is not None and os.WIFSIGNALED(status) else None,
            "cpu": cpu,
            "wall": wall,
            "peak_rss_kib": peak_kib,
            "idle": activity.idle,
            "waited": activity.waited,
            "report": report.decode("utf-8", "replace"),
            "report_truncated": truncated,
            "output": output.decode("utf-8", "replace"),
            "setup_error": setup_error,
            "crash": crash.decode("utf-8", "replace"),
            "oom_killed": child.pid in self.slots and self.cgroups.oom_killed(self.slots[child.pid]),
        } | ({} if answer is None else {"answer": base64.b64encode(answer[:self.solution.answer_cap]).decode(),
                                        "answer_truncated": len(answer) > self.solution.answer_cap}) \
          | ({} if other is None else {"interactor": other.facts()})

    def _serves(self) -> bool:
        program = self.solution.program
        return program is not None and program.serves

    def _child_for_test(self) -> tuple[Child, float, str | None]:
        """The child for the next test, the CPU clock reading its test is charged from, and why it
        never became ready (None: it is). The warm runtime when it is ready again in time and has not
        grown, charged from its last test's end: all it did since, whatever thread did it, is this
        test's (past the limit before it is ready: TLE). It has as long as a test has (its CPU, idle
        and waiting budgets): before, 5 s of wall time, and on a busy machine a JVM that a solution had
        taken over between tests, starved of CPU, was not ready in time and was replaced: its test, in a
        fresh JVM, was AC where it is TLE (helper-39, load 14-59). Else the spare or a new child,
        charged from its "ready" (start-up is not the solution's; a new child never ready is IE)."""
        solution = self.solution
        if self.warm is not None:
            child, self.warm = self.warm, None
            _, not_ready = await_ready(child, solution.time_limit + solution.idle_limit + solution.overload_wait,
                                       child.ended_cpu + solution.time_limit)
            if not not_ready and self._reset_peak(child):
                return child, child.ended_cpu, None
            child.discard()
        child = self.spare or self._fork()
        self.spare = None
        program = self.solution.program
        if program is None or not program.ready:
            return child, 0.0, None
        start_cpu, not_ready = await_ready(child, Program.READY_TIMEOUT)
        if not not_ready and program.serves:
            self._reset_peak(child)  # if the kernel refuses, this runtime serves one test
        return child, start_cpu, not_ready

    @staticmethod
    def _reset_peak(child: Child) -> bool:
        """Start a serving runtime's test from what it holds now: its peak memory is reset, and a test's
        figure is its first start's memory plus what the test added. False: it cannot serve another
        (the kernel refused, or it holds WARM_GROWTH_KIB more than at first: its next test would
        start from more than a fresh runtime holds)."""
        child.ready_kib = reset_peak(child.pid)
        if child.ready_kib is None:
            return False
        if child.base_kib is None:
            child.base_kib = child.ready_kib
        return child.ready_kib <= child.base_kib + WARM_GROWTH_KIB

    def _keeps(self, child: Child, report: bytes, truncated: bool, usage) -> bool:
        """Whether a serving runtime that returned can take the next test (then it is told to get
        ready: NEXT_LINE): its one result line was whole, its arguments were all written, and its CPU
        time leaves the backstop room for a test."""
        if (child.ready_kib is None or child.args_w is None or truncated
                or report.count(b"\n") != 1 or not report.endswith(b"\n")
                or usage[0] + self.solution.time_limit + 1 >= self.solution.cpu_backstop()):
            return False
        try:
            return os.write(child.args_w, NEXT_LINE) == len(NEXT_LINE)
        except OSError:
            return False

    def finish(self) -> None:
        """After an answer has gone out: kill strays, make sure the next test's child exists, and
        reap the killed children whose tear-down is over (the others later, never waiting)."""
        reap_orphans(self._waiting_children())
        self.prepare_spare()
        self.ending = [pid for pid in self.ending if os.waitpid(pid, os.WNOHANG)[0] == 0]
        self.release_cgroups()

    def release_cgroups(self) -> None:
        """Take back the cgroups of reaped children (one still tearing down is tried again later)."""
        live = self._waiting_children()
        for pid in [pid for pid in self.slots if pid not in live]:
            if self.cgroups.recycle(self.slots[pid]):
                del self.slots[pid]

    def _fork(self) -> Child:
        solution = self.solution
        args_r, args_w = os.pipe2(os.O_CLOEXEC)
        result_r, result_w = os.pipe2(os.O_CLOEXEC)
        output_r, output_w = os.pipe2(os.O_CLOEXEC)
        setup_r, setup_w = os.pipe2(os.O_CLOEXEC)
        crash_r, crash_w = os.pipe2(os.O_CLOEXEC)
        answer_r = for_interactor = None
        if solution.interactive:  # 0 and 1 face the interactor; the argument pipe is the start gate
            stdin_r, stdin_w = os.pipe2(os.O_CLOEXEC)
            stdout_r, stdout_w = os.pipe2(os.O_CLOEXEC)
            # the interactor's ends, then the program's, which the zygote holds too (interaction.Interactor)
            for_interactor = (stdin_w, stdout_r, stdin_r, stdout_w)
            channels = child_side.Channels(stdin_r, stdout_w, output_w, result_w, args_r, setup_w, crash_w)
            theirs = ()
        elif solution.stdin_mode:  # the input on 0 through the argument pipe, the answer from 1
            answer_r, answer_w = os.pipe2(os.O_CLOEXEC)
            channels = child_side.Channels(args_r, answer_w, output_w, result_w, self.devnull, setup_w, crash_w)
            theirs = (answer_w,)
        else:
            channels = child_side.Channels(self.devnull, output_w, output_w, result_w, args_r, setup_w, crash_w)
            theirs = ()
        # the memory limit + cgroup.HEADROOM for every language: the cgroup counts pages charged, not the
        # address space a runtime maps (the share RLIMIT_DATA leaves the JVM is mostly never touched)
        slot = self.cgroups.create(solution.memory_bytes) if self.cgroups else None
        # the child's one CPU: with -j > 1 the zygote's own (named: a template forked before the judge
        # pinned the zygote runs anywhere); else the one it runs on when it pins itself (never a wait for
        # the CPU the zygote is busy on); an interactive child's is the zygote's, known here, where its
        # interactor is started beside it
        allowed = os.sched_getaffinity(0)
        cpu = next(iter(allowed)) if len(allowed) == 1 else sched_getcpu() if solution.interactive else child_side.OWN_CPU
        code_w = solution.code.channel() if solution.code is not None else None
        channels.code = -1 if code_w is None else code_w
        pid = self._spawn(channels, slot, cpu, len(allowed) == 1)
        child_ends = (args_r, result_w, output_w, setup_w, crash_w, *theirs, *([code_w] if code_w is not None else []))
        if pid is None:  # the template failed, perhaps after it cloned a child onto these channels and this
            # cgroup (reap_orphans ends that child): neither is handed to another; the zygote forks from now on
            for fd in (*child_ends, args_w, result_r, output_r, setup_r, crash_r, *(for_interactor or ()),
                       *([answer_r] if answer_r is not None else [])):
                os.close(fd)
            return self._fork()
        if slot is not None:
            self.slots[pid] = slot
        for fd in child_ends:
            os.close(fd)
        os.set_blocking(args_w, False)  # a child stuck while loading must not block the zygote
        return Child(pid, args_w, result_r, output_r, setup_r, answer_r, for_interactor, cpu, crash_r)

    def _spawn(self, channels: child_side.Channels, slot, cpu: int, pinned: bool) -> int | None:
        """A new child on `channels`: forked by the template when the state it inherits is settled
        (engine/template.py; on the zygote's CPU when the zygote is `pinned` to `cpu`), else by the
        zygote itself. None: the template failed (it is ended; the zygote forks the next ones)."""
        joins = None if slot is None else slot.tree_joins if self.solution.processes else slot.joins
        template = self.templates.for_state(self)
        if template is not None:
            try:
                return template.fork(channels, joins, cpu, pinned)
            except OSError as err:  # gone (killed?), stuck or out of processes: fork here from now on
                print(f"zygote: the template cannot fork ({err}); forking here", file=sys.stderr)
                self.templates.retire(usable=False)
                return None
        pid = os.fork()
        if pid == 0:
            self.start_child(channels, joins, cpu)
        return pid

    def start_child(self, channels: child_side.Channels, joins, cpu: int) -> None:  # (never returns)
        """In a new child, forked here or by the template: set up and run the solution (`joins`: its
        cgroup's, sandbox.cgroup.Slot)."""
        join = (lambda: self.cgroups.join(joins)) if joins is not None else None
        child_side.start(self.solution, channels, self.pid, join, self.data_baseline, self.nproc, cpu)

    def _never_ready(self, child: Child, why: str) -> dict:
        """A runtime that did not start (say, the JVM refused its settings): the judge's fault, IE."""
        kill_group(child.pid)
        _, status, rusage = os.wait4(child.pid, 0)
        output = bytearray()
        os.set_blocking(child.output_r, False)
        poller = select.poll()
        poller.register(child.output_r, select.POLLIN)
        drain(child.output_r, output, OUTPUT_CAP, poller, {child.output_r}, self.devnull)
        os.close(child.args_w)
        child.close()
        said = output.decode("utf-8", "replace").strip()[:500]
        return {"ended": "signaled" if os.WIFSIGNALED(status) else "exited",
                "exit_code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
                "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
                "cpu": 0.0, "wall": 0.0, "peak_rss_kib": rusage.ru_maxrss, "report": "", "report_truncated": False,
                "output": "", "setup_error": f"{why}" + (f": {said}" if said else "")}

    def _watch(self, child: Child, started: float, args: bytes, start_cpu: float = 0.0, other=None):
        """Feed the arguments, drain both pipes until the child exits or passes a limit; no fixed
        polling interval.

        Only the child's CPU time can make it TLE on a busy machine (docs/verdicts.md): the wall
        clock stops it only when it has been idle (no thread running or waiting for a CPU) for
        the idle limit, and a child that waited for a CPU for the overload bound is stopped as
        the machine's fault. Each wait lasts until the earliest moment a budget could run out:
        the CPU budget spread over every core the child might use, the idle and waiting budgets
        at one second per second.
        """
        solution = self.solution
        time_limit = solution.time_limit
        result_r, output_r, answer_r = child.result_r, child.output_r, child.answer_r
        pidfd = os.pidfd_open(child.pid)
        clock = process_cpu_clock(child.pid)
        tree = Tree(child.pid, clock, self.cgroups, self.slots.get(child.pid)) if solution.processes else None
        activity = Activity(child.pid, clock, started, None if other is None else other.pid, tree)
        poller = select.poll()
        for fd in (result_r, output_r, pidfd) + ((answer_r,) if answer_r is not None else ()):
            poller.register(fd, select.POLLIN)
        if other is not None:
            poller.register(other.pidfd, select.POLLIN)
        pending = self._feed(child, memoryview(args), poller)
        spare_ahead = not self._serves()  # a serving runtime is its own next child
        if pending is None and spare_ahead:
            self.prepare_spare()  # the next test's child sets up while this one runs
        report, output, answer = bytearray(), bytearray(), bytearray()
        truncated = False
        open_pipes = {result_r, output_r} | ({answer_r} if answer_r is not None else set())
        cores = max(1, len(os.sched_getaffinity(0)))
        wall_bound = time_limit + solution.idle_limit + solution.overload_wait
        ended, usage = None, None
        try:
            while True:
                try:
                    remaining_cpu = time_limit - (activity.cpu_now() - start_cpu)
                except OSError:  # the child is already gone
                    remaining_cpu = time_limit
                if remaining_cpu <= 0:
                    ended = "cpu-limit"
                    break
                remaining_idle, remaining_wait = self._budgets(activity, started + wall_bound)
                if remaining_idle <= 0 or remaining_wait <= 0:
                    activity.update()  # the figures were bounds; take the kernel's
                    remaining_idle, remaining_wait = self._budgets(activity, started + wall_bound)
                    if remaining_wait <= 0:
                        ended = "overloaded"
                        break
                    if remaining_idle <= 0:
                        if not activity.runnable():
                            ended = "idle-limit"
                            break
                        remaining_idle = RUNQUEUE_GRACE  # it waits for a CPU: its wait is not counted yet
                timeout = min(remaining_cpu / cores, remaining_idle, remaining_wait, activity.until_first_look())
                events = poller.poll(math.ceil(timeout * 1000))
                exited = False
                for fd, _ in events:
                    if fd == pidfd:
                        exited = True
                    elif other is not None and fd == other.pidfd:
                        poller.unregister(fd)
                        other.reap(program_running=True)
                        if not other.accepted:  # its verdict stands: the program is stopped (WA beats a later TLE)
                            ended, exited = "interactor-ended", True
                    elif fd == child.args_w:
                        pending = self._feed(child, pending, poller)
                        if pending is None and spare_ahead:
                            self.prepare_spare()
                    elif fd == result_r:
                        truncated |= drain(fd, report, REPORT_CAP, poller, open_pipes, self.devnull)
                        if b"\n" in report or truncated:  # a whole result line, or too much: over
                            usage = live_usage(clock, child.pid)
                            ended = "returned" if usage else None  # None: it exited, ask wait4
                            exited = True
                    elif fd == answer_r:
                        drain(fd, answer, solution.answer_cap + 1, poller, open_pipes, self.devnull)  # one byte over: too much
                    else:
                        drain(fd, output, OUTPUT_CAP, poller, open_pipes, self.devnull)
                if exited:
                    if other is not None and ended != "interactor-ended":
                        other.program_ended()
                    break
            # Stop the child (its figures are read; a serving runtime that returned waits for NEXT_LINE)
            serving_on = self._serves() and ended == "returned"
            if tree is not None:  # its CPU read a last time, then all of it killed
                tree.stop()
            if not serving_on:
                kill_group(child.pid)
            truncated |= self._drain_left(child, open_pipes, poller, (report, output, answer), serving_on)
        finally:
            os.close(pidfd)
            if pending is not None:
                os.close(child.args_w)
                child.args_w = None
        return ended, bytes(report), truncated, bytes(output), usage, None if answer_r is None else bytes(answer), activity

    def _drain_left(self, child: Child, open_pipes: set, poller, into: tuple, keep_open: bool) -> bool:
        """Take what is left in the pipes `into` (report, output, answer), without waiting for an end
        of file that a stray descendant could hold back. True: the result line was cut off."""
        report, output, answer = into
        truncated = False
        for fd in list(open_pipes):
            os.set_blocking(fd, False)
            if fd == child.result_r:
                truncated |= drain(fd, report, REPORT_CAP, poller, open_pipes, self.devnull)
            elif fd == child.answer_r:
                drain(fd, answer, self.solution.answer_cap + 1, poller, open_pipes, self.devnull)
            else:
                drain(fd, output, OUTPUT_CAP, poller, open_pipes, self.devnull)
            if keep_open:  # a serving runtime's pipes carry its next test too
                os.set_blocking(fd, True)
        return truncated

    def _budgets(self, activity: Activity, deadline: float) -> tuple[float, float]:
        """Seconds left of the idle and waiting budgets (lower bounds). The waiting budget also
        ends at `deadline`, a backstop for a child starved of any CPU (its wait shows only once it
        runs): no test lasts that long on its own (CPU, idle and waiting budgets together)."""
        remaining_idle, remaining_wait = activity.remaining(self.solution.idle_limit, self.solution.overload_wait)
        return remaining_idle, min(remaining_wait, deadline - time.monotonic())

    def _feed(self, child: Child, pending: memoryview, poller) -> memoryview | None:
        """Write what the argument pipe takes; close it when all is written (None: done), unless a
        serving runtime reads it for its next test too."""
        try:
            written = os.write(child.args_w, pending)
        except BlockingIOError:
            written = 0
        except BrokenPipeError:  # the child ended before reading its arguments
            written = len(pending)
        pending = pending[written:]
        if pending:
            poller.register(child.args_w, select.POLLOUT)
            return pending
        try:
            poller.unregister(child.args_w)
        except KeyError:
            pass
        if not self._serves():
            os.close(child.args_w)
        return None


def serve(confine: bool = True, judge: int | None = None) -> None:
    """Answer requests until the judge closes our stdin; `confine`: enter the kernel layers;
    `judge`: the judge's pid (we end with it, even if it ended before we could ask to)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the judge's to handle
    die_with_parent(os.getppid() if judge is None else judge)
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    child_side.builtins_as_python_starts()
    # A child's channels go to descriptors 3 to 5 (RESULT_FD, ARGS_FD, CRASH_FD): hold them before
    # the confinement layers open theirs, so a child's dup2 can never clobber a descriptor they keep.
    # CRASH_FD stays held for good: no pipe of a child lands there, so the child's first dup2 is safe.
    devnull = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
    placeholder, held = os.dup(devnull), os.dup(devnull)
    if (devnull, placeholder, held) != (RESULT_FD, ARGS_FD, CRASH_FD):
        raise RuntimeError("the zygote must start with only descriptors 0, 1 and 2 open")
    project_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if confine:  # as root: every child drops the bounding set; it inherits an empty one instead
        from tcjudge.engine.sandbox import drop_bounding_set
        drop_bounding_set()
    confinement, problems = load_confinement([project_root]) if confine else (None, ["kernel layers off"])
    os.close(placeholder)
    sys.path[:] = [entry for entry in sys.path if entry != project_root]  # solutions import no judge code
    cgroups, no_cgroups = open_cgroups() if confine else (None, "kernel layers off")
    zygote = Zygote(confinement, devnull, project_root, cgroups)
    sys.dont_write_bytecode = True  # our own modules' bytecode is written as the judge's is; a child writes none
    gc.collect()  # the interpreter's objects frozen here, beside the judge's start: a load's collection
    gc.freeze()  # then sees only its own (the first full one took 2.5 ms of the first test's wait)
    _send({"ready": True, "baseline_kib": baseline_kib(), "problems": problems,
           "bounds": cgroups.description if cgroups else f"rlimits only: {no_cgroups}"})
    requests = os.fdopen(0, "rb", buffering=1 << 16)
    for line in requests:
        request = json.loads(line)
        handler = zygote.load if request["op"] == "load" else zygote.run
        try:
            response = handler(request)
        except Exception as err:  # a fault of the harness itself: tell the judge, keep serving
            response = {"internal_error": f"{type(err).__name__}: {err}"}
        _send(response)
        try:
            zygote.finish()
        except OSError as err:  # no spare this time (out of processes or memory): fork on demand
            print(f"zygote: cannot fork a spare child: {err}", file=sys.stderr)
    zygote.discard_waiting()
    zygote.templates.retire()
    for pid in zygote.ending:
        os.waitpid(pid, 0)
    zygote.ending = []
    if cgroups is not None:
        zygote.release_cgroups()
        cgroups.close()
    os._exit(0)  # nothing left to flush (we write with os.write): the interpreter's teardown cost 135 ms


def _send(message: dict) -> None:
    view = memoryview(json.dumps(message).encode() + b"\n")
    while view:
        view = view[os.write(1, view):]
