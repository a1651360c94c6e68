"""The trusted worker: runs every test of a solution in a fresh, confined child it forks.

It is started as a fresh interpreter by the judge (never forked from it, so it holds no expected
outputs) and never runs solution code itself: only its forked children do. What it reports about a
child comes from the kernel (wait4's rusage, the child's CPU clock, the exit status) and from two
pipes (the child's result channel and its captured output), so nothing the solution does can change
the facts the judge sees. It speaks JSON lines on stdin/stdout and imports only the standard library
and tcjudge.engine.sandbox.

A child is forked ahead of its test (a "spare", forked as soon as the previous test has its
arguments): it sets its limits, confines itself and loads the solution, then waits for its
arguments on a pipe. Only the call itself is left on the test's critical path.

The zygote first sends {"ready": true, "baseline_kib", "problems"}. Then, one JSON line each way:
  {"op": "load", "path", "class", "method", "time_limit", "memory_mib", "check": bool, "source_limit"}
      -> {"ok": true} (with check, also "facts" of a child that only compiles and loads the solution)
      or {"ok": false, "compile_error": text} (not a regular file, over the source limit, unreadable)
  {"op": "run", "args": [...]} -> the facts of one test (see verdicts.RunFacts)

Compiled languages ("program" in the load request, built by tcjudge.languages): the zygote compiles
nothing; the child, once limited and confined with the program's sandbox profile, execs the
program, which speaks the same protocol on the same descriptors (or, with "stdio", reads the
arguments on 0 and writes the result on 1). A program that says "ready" first (the JVM) is charged
only the CPU time it uses after that line. See Program and docs/languages.md.

Standard-input mode ("mode": "stdin" in the load request, no class or method): the program is run as
`__main__`, the test's input (`{"op": "run", "input": base64}`) arrives on its descriptor 0
through the same pipe that carries a method's arguments, and what it writes on descriptor 1 comes
back as "answer" (base64: any bytes, a third larger), up to ANSWER_CAP bytes. Descriptor 2 is the
captured "output" as for a method. The spare child loads nothing before its input starts to arrive:
it is forked and confined ahead, and runs the program once descriptor 0 is readable. A compiled
program needs nothing else: exec'd in the child with the same descriptors, it ends with its exit
status (0, with no result line, is a normal end; judge_program reads it the same way).
"""

from __future__ import annotations

import atexit
import base64
import ctypes
import gc
import json
import math
import os
import resource
import select
import signal
import stat
import sys
import time
import traceback
import types

OUTPUT_CAP = 8 * 1024  # bytes of printed output kept per test; the rest is discarded by the kernel
ANSWER_CAP = 64 * 1024 * 1024  # bytes of a stdin program's standard output kept; more is an output limit
DISCARD_CHUNK = 1 << 30  # bytes spliced to /dev/null per call: as much as the pipe holds
RUNQUEUE_GRACE = 0.01  # seconds to wait for a runnable child's queued wait to show in its statistics
FIRST_LOOK = 0.05  # seconds into a test before its idle and waiting time are counted (short tests never are)
REPORT_CAP = 1024 * 1024  # a result larger than this (far above any TopCoder return) is cut off: RE
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
CPUCLOCK_SCHED = 2
RESULT_FD = 3
ARGS_FD = 4
UNSUPPORTED = "$unsupported"  # same marker as tcjudge.problems.tctypes.UNSUPPORTED (not imported: keep this light)
_libc = ctypes.CDLL(None, use_errno=True)


def process_cpu_clock(pid: int) -> int:
    """The clock id of another process's CPU time (Linux's MAKE_PROCESS_CPUCLOCK)."""
    return ((~pid) << 3) | CPUCLOCK_SCHED


class SourceError(Exception):
    """The file cannot be a solution at all (not a regular file, over the size limit): CE."""


class Solution:
    """One solution's source and the limits its tests run under.

    The zygote only reads the bytes (a regular file, at most `source_limit` of them); it never
    parses them: each child compiles the source itself, confined and limited like the test, so
    a source that is slow, huge or deep to compile costs that child (CE, TLE or MLE), not us.
    """

    def __init__(self, request: dict, confinement=None):
        self.path = request["path"]
        self.confinement = confinement  # the kernel layers its children enter (None: off)
        self.program = Program(request["program"]) if request.get("program") else None
        self.stdin_mode = request.get("mode") == "stdin"
        self.compile_only = False  # the load check of a stdin program: compile, say so, run nothing
        self.class_name = request.get("class")
        self.method = request.get("method")
        self.time_limit = float(request["time_limit"])
        self.memory_bytes = int(request["memory_mib"]) * 1024 * 1024
        # Seconds a test may spend neither running nor waiting for a CPU, and waiting for a CPU
        # (verdicts.Limits); the defaults are the same rules for requests that leave them out.
        self.idle_limit = float(request.get("idle_limit", 2 * self.time_limit + 1))
        self.overload_wait = float(request.get("overload_wait", max(30.0, 10 * self.time_limit)))
        self.source = read_source(self.path, int(request["source_limit"]))

    def data_limit(self, baseline: int) -> int:
        """RLIMIT_DATA: the memory limit above what the process holds before the solution runs."""
        if self.program is not None:  # exec starts afresh: the runtime's own share, not the zygote's
            return self.memory_bytes + self.program.data_extra
        return baseline + self.memory_bytes

    def cpu_backstop(self) -> int:
        return math.ceil(self.time_limit) + 1 + (self.program.cpu_extra if self.program else 0)


def read_source(path: str, limit: int) -> bytes:
    """At most `limit` bytes of a regular file (no device, fifo or link to one); SourceError if not."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise SourceError("the solution is not a regular file")
        data = os.read(fd, limit + 1)
        if len(data) > limit:
            raise SourceError(f"the source is over the {limit // 1024} KiB limit")
        return data
    finally:
        os.close(fd)


class Program:
    """A compiled solution (C++ binary, the JVM with our entry class), exec'd by the confined child.

    The language decides all of it on the judge's side (tcjudge.languages); the zygote only execs.
    """

    READY_LINE = b"ready\n"
    READY_TIMEOUT = 30.0  # seconds for a runtime to start on a loaded machine; past it: IE

    def __init__(self, spec: dict):
        self.argv = [str(arg) for arg in spec["argv"]]
        self.env = {str(k): str(v) for k, v in spec.get("env", {}).items()}
        self.readable = [str(path) for path in spec.get("readable", [])]
        self.profile = str(spec["profile"])
        self.stdio = bool(spec.get("stdio"))  # arguments on 0, result on 1 (where 3 and 4 are out of reach)
        self.ready = bool(spec.get("ready"))  # says READY_LINE once started: start-up is not charged
        self.result_channel = bool(spec.get("result_channel", True))  # False: a stdin program ends by its exit
        self.data_extra = int(spec.get("data_extra_mib", 0)) << 20
        self.cpu_extra = int(spec.get("cpu_extra", 0))

    def exec(self) -> None:
        """In the confined child: arrange the descriptors and become the program (never returns)."""
        for fd in (RESULT_FD, ARGS_FD):  # a dup2 onto itself kept close-on-exec
            os.set_inheritable(fd, True)
        if not self.result_channel:  # nothing for it to say beyond its output and exit status
            os.close(RESULT_FD)
            os.close(ARGS_FD)
        elif self.stdio:
            os.dup2(ARGS_FD, 0)
            os.dup2(RESULT_FD, 1)
            os.close(ARGS_FD)
            os.close(RESULT_FD)
        os.execve(self.argv[0], self.argv, self.env)


class Child:
    """A forked child that has loaded the solution and waits on its argument pipe for one test.

    `setup_r` carries the harness's own set-up errors; the child closes its end before any solution
    code runs, so a solution cannot pass itself off as the judge's fault.
    """

    __slots__ = ("pid", "args_w", "result_r", "output_r", "setup_r", "answer_r")

    def __init__(self, pid: int, args_w: int, result_r: int, output_r: int, setup_r: int, answer_r: int | None):
        self.pid, self.args_w, self.result_r, self.output_r, self.setup_r = pid, args_w, result_r, output_r, setup_r
        self.answer_r = answer_r  # a stdin program's standard output; None for a method

    def setup_error(self) -> str | None:
        """What the child said went wrong before the solution ran (read once it has ended)."""
        os.set_blocking(self.setup_r, False)
        try:
            message = os.read(self.setup_r, 4096)
        except BlockingIOError:
            message = b""
        return message.decode("utf-8", "replace") or None

    def close(self) -> None:
        for fd in (self.result_r, self.output_r, self.setup_r, self.answer_r):
            if fd is not None:
                os.close(fd)

    def discard(self) -> None:
        _kill_group(self.pid)
        os.waitpid(self.pid, 0)
        os.close(self.args_w)
        self.close()


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
        self.data_baseline = _vm_data_bytes()
        self.spare: Child | None = None  # the next test's child, forked while the judge was busy
        self.ending: list[int] = []  # children killed after returning, reaped once the answer is out

    # -- requests -------------------------------------------------------------------------------

    def load(self, request: dict) -> dict:
        self.discard_spare()
        self._close_program_confinement()
        try:
            self.solution = Solution(request, self.confinement)
        except SourceError as err:
            self.solution = None
            return {"ok": False, "compile_error": str(err)}
        except OSError as err:
            self.solution = None
            return {"ok": False, "compile_error": f"cannot read the file: {err.strerror}"}
        if self.solution.program is not None and self.confinement is not None:
            program = self.solution.program
            held = _hold_child_descriptors(self.devnull)  # the layers' descriptors must not be 3 or 4
            try:
                self.solution.confinement, problems = _load_confinement(self.project_root, program.readable,
                                                                        program.profile)
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
        self.data_baseline = _vm_data_bytes()
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
        if self.solution.stdin_mode:
            return self.run_child(base64.b64decode(request["input"]))
        return self.run_child(request["args"])

    def prepare_spare(self) -> None:
        """Fork the next test's child now, while the current one runs: fork, confinement and
        loading the solution then happen off the critical path of the next test."""
        if self.solution is not None and self.spare is None:
            self.spare = self._fork()

    def _close_program_confinement(self) -> None:
        """Release the layers prepared for the previous compiled program (its Landlock ruleset)."""
        if self.solution is not None and self.solution.confinement not in (None, self.confinement):
            self.solution.confinement.close()

    def discard_spare(self) -> None:
        if self.spare is not None:
            self.spare.discard()
            self.spare = None

    # -- one child ------------------------------------------------------------------------------

    def run_child(self, args: list | bytes | None) -> dict:
        """Hand one test's arguments (None: only load; bytes: a stdin program's input) to a child,
        watch it until it ends, report.

        A child that has written its whole result line is done: its CPU time and peak memory are
        read from the kernel there and then, it is killed, and it is reaped after the answer has
        gone out (see finish), so the kernel's tear-down of its memory is off the critical path.
        """
        child = self.spare or self._fork()
        self.spare = None
        program = self.solution.program
        start_cpu, not_ready = _await_ready(child) if program is not None and program.ready else (0.0, None)
        if not_ready:
            return self._never_ready(child, not_ready)
        started = time.monotonic()
        try:
            feed = args if isinstance(args, bytes) else json.dumps(args).encode()
            ended, report, truncated, output, usage, answer, activity = self._watch(child, started, feed, start_cpu)
        finally:
            _kill_group(child.pid)
        if ended == "returned":
            status = None
            self.ending.append(child.pid)
            cpu, peak_kib = usage
        else:
            _, status, rusage = os.wait4(child.pid, 0)
            ended = ended or ("signaled" if os.WIFSIGNALED(status) else "exited")
            cpu, peak_kib = rusage.ru_utime + rusage.ru_stime, rusage.ru_maxrss
        cpu = max(0.0, cpu - start_cpu)
        wall = time.monotonic() - started
        setup_error = child.setup_error()
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
            "oom_killed": child.pid in self.slots and self.cgroups.oom_killed(self.slots[child.pid]),
        } | ({} if answer is None else {"answer": base64.b64encode(answer[:ANSWER_CAP]).decode(),
                                        "answer_truncated": len(answer) > ANSWER_CAP})

    def finish(self) -> None:
        """After an answer has gone out: kill strays, make sure the next test's child exists, and
        reap the killed children whose tear-down is over (the others later, never waiting)."""
        _reap_orphans(set(self.ending) | ({self.spare.pid} if self.spare else set()))
        self.prepare_spare()
        self.ending = [pid for pid in self.ending if os.waitpid(pid, os.WNOHANG)[0] == 0]
        self.release_cgroups()

    def release_cgroups(self) -> None:
        """Take back the cgroups of reaped children (one still tearing down is tried again later)."""
        live = set(self.ending) | ({self.spare.pid} if self.spare else set())
        for pid in [pid for pid in self.slots if pid not in live]:
            if self.cgroups.recycle(self.slots[pid]):
                del self.slots[pid]

    def _fork(self) -> Child:
        args_r, args_w = os.pipe2(os.O_CLOEXEC)
        result_r, result_w = os.pipe2(os.O_CLOEXEC)
        output_r, output_w = os.pipe2(os.O_CLOEXEC)
        setup_r, setup_w = os.pipe2(os.O_CLOEXEC)
        answer_r, answer_w = os.pipe2(os.O_CLOEXEC) if self.solution.stdin_mode else (None, None)
        slot = self.cgroups.create(self.solution.data_limit(0)) if self.cgroups else None  # (+ a runtime's share)
        pid = os.fork()
        if pid == 0:
            self._child(self.solution, args_r, result_w, output_w, setup_w, answer_w, slot)  # never returns
        if slot is not None:
            self.slots[pid] = slot
        for fd in (args_r, result_w, output_w, setup_w, answer_w):
            if fd is not None:
                os.close(fd)
        os.set_blocking(args_w, False)  # a child stuck while loading must not block the zygote
        return Child(pid, args_w, result_r, output_r, setup_r, answer_r)

    def _never_ready(self, child: Child, why: str) -> dict:
        """A runtime that did not start (say, the JVM refused its settings): the judge's fault, IE."""
        _kill_group(child.pid)
        _, status, rusage = os.wait4(child.pid, 0)
        output = bytearray()
        os.set_blocking(child.output_r, False)
        poller = select.poll()
        poller.register(child.output_r, select.POLLIN)
        _drain(child.output_r, output, OUTPUT_CAP, poller, {child.output_r}, self.devnull)
        os.close(child.args_w)
        child.close()
        said = output.decode("utf-8", "replace").strip()[:500]
        return {"ended": "signaled" if os.WIFSIGNALED(status) else "exited",
                "exit_code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
                "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
                "cpu": 0.0, "wall": 0.0, "peak_rss_kib": rusage.ru_maxrss, "report": "", "report_truncated": False,
                "output": "", "setup_error": f"{why}" + (f": {said}" if said else "")}

    def _watch(self, child: Child, started: float, args: bytes, start_cpu: float = 0.0):
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
        activity = Activity(child.pid, clock, started)
        poller = select.poll()
        for fd in (result_r, output_r, pidfd) + ((answer_r,) if answer_r is not None else ()):
            poller.register(fd, select.POLLIN)
        pending = self._feed(child, memoryview(args), poller)
        if pending is None:
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
                    remaining_cpu = time_limit - (time.clock_gettime(clock) - start_cpu)
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
                    elif fd == child.args_w:
                        pending = self._feed(child, pending, poller)
                        if pending is None:
                            self.prepare_spare()
                    elif fd == result_r:
                        truncated |= _drain(fd, report, REPORT_CAP, poller, open_pipes, self.devnull)
                        if b"\n" in report or truncated:  # a whole result line, or too much: over
                            usage = _live_usage(clock, child.pid)
                            ended = "returned" if usage else None  # None: it exited, ask wait4
                            exited = True
                    elif fd == answer_r:
                        _drain(fd, answer, ANSWER_CAP + 1, poller, open_pipes, self.devnull)  # one byte over: too much
                    else:
                        _drain(fd, output, OUTPUT_CAP, poller, open_pipes, self.devnull)
                if exited:
                    break
            # Stop the child (its figures are read), then take whatever is left in the pipes,
            # without waiting for an end of file that a stray descendant could hold back.
            _kill_group(child.pid)
            for fd in list(open_pipes):
                os.set_blocking(fd, False)
                if fd == result_r:
                    truncated |= _drain(fd, report, REPORT_CAP, poller, open_pipes, self.devnull)
                elif fd == answer_r:
                    _drain(fd, answer, ANSWER_CAP + 1, poller, open_pipes, self.devnull)
                else:
                    _drain(fd, output, OUTPUT_CAP, poller, open_pipes, self.devnull)
        finally:
            os.close(pidfd)
            if pending is not None:
                os.close(child.args_w)
        return ended, bytes(report), truncated, bytes(output), usage, None if answer_r is None else bytes(answer), activity

    def _budgets(self, activity: Activity, deadline: float) -> tuple[float, float]:
        """Seconds left of the idle and waiting budgets (lower bounds). The waiting budget also
        ends at `deadline`, a backstop for a child starved of any CPU (its wait shows only once it
        runs): no test lasts that long on its own (CPU, idle and waiting budgets together)."""
        remaining_idle, remaining_wait = activity.remaining(self.solution.idle_limit, self.solution.overload_wait)
        return remaining_idle, min(remaining_wait, deadline - time.monotonic())

    @staticmethod
    def _feed(child: Child, pending: memoryview, poller) -> memoryview | None:
        """Write what the argument pipe takes; close it when all is written (None: done)."""
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
        os.close(child.args_w)
        return None

    def _child(self, solution: Solution, args_r: int, result_w: int, output_w: int, setup_w: int,
               answer_w: int | None, slot) -> None:
        """In the forked child: cut every tie to the zygote, confine, then run the solution.

        Every descriptor but 0-4 is closed before the solution runs, the set-up channel included.
        A stdin program gets the argument pipe as descriptor 0 and the answer pipe as descriptor 1."""
        try:
            die_with_parent(self.pid)
            if slot is not None:
                self.cgroups.join(slot)  # first: everything from here on is charged to the test
            os.setpgid(0, 0)
            os.dup2(args_r if solution.stdin_mode else self.devnull, 0)
            os.dup2(answer_w if solution.stdin_mode else output_w, 1)
            os.dup2(output_w, 2)
            os.dup2(result_w, RESULT_FD)
            os.dup2(self.devnull if solution.stdin_mode else args_r, ARGS_FD)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            self._limit(solution)
            if solution.confinement is not None:
                solution.confinement.enter()  # it may use descriptors of its own, closed just below
            if solution.program is not None:  # exec closes the set-up channel (close-on-exec) on success
                os.closerange(ARGS_FD + 1, setup_w)
                os.closerange(setup_w + 1, 1 << 16)
                solution.program.exec()
            os.closerange(ARGS_FD + 1, 1 << 16)
        except BaseException as err:  # the harness's own set-up failed: say so, as an internal error
            os.write(setup_w, f"{type(err).__name__}: {err}".encode()[:4096])
            os._exit(70)
        (_run_program if solution.stdin_mode else _run_solution)(solution)
        # Stay alive, stopped, until the zygote has read this process's CPU time and peak memory
        # and killed it (an exiting process loses its memory figures before it can be reaped).
        os.kill(os.getpid(), signal.SIGSTOP)
        os._exit(0)

    def _limit(self, solution: Solution) -> None:
        cpu = solution.cpu_backstop()  # a backstop only: the zygote stops it at the limit
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        data = solution.data_limit(self.data_baseline)
        resource.setrlimit(resource.RLIMIT_DATA, (data, data))
        _, stack_hard = resource.getrlimit(resource.RLIMIT_STACK)
        stack = solution.memory_bytes if stack_hard == resource.RLIM_INFINITY else min(solution.memory_bytes, stack_hard)
        resource.setrlimit(resource.RLIMIT_STACK, (stack, stack_hard))
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
        if self.nproc is not None:
            resource.setrlimit(resource.RLIMIT_NPROC, (self.nproc, self.nproc))
        cpu = _libc.sched_getcpu()  # one CPU, the one it runs on: threads add CPU time, not cores
        if cpu >= 0:
            os.sched_setaffinity(0, {cpu})


def _run_solution(solution: Solution) -> None:
    """Load the module fresh, find the class and method, wait for the arguments, call, report."""
    code = _compile(solution)
    if code is None:
        return
    phase = "load"
    _hide_judge_frames(keep=1)
    try:
        module = _solution_module(solution)
        exec(code, module.__dict__)
        cls = module.__dict__.get(solution.class_name)
        if not isinstance(cls, type):
            _report({"kind": "missing", "message": f"the file defines no class {solution.class_name}"})
            return
        if not callable(getattr(cls, solution.method, None)):
            _report({"kind": "missing", "message": f"class {solution.class_name} has no method {solution.method}"})
            return
        args = _read_arguments()
        if args is None:
            _report({"kind": "loaded"})
            return
        phase = "call"
        method = getattr(cls(), solution.method)
        value = method(*args)
        phase = "result"
        _flush_output()
        _report({"kind": "return", "value": _plain(value, 0)})
    except BaseException as err:  # anything the solution raises, SystemExit included, is its verdict
        _flush_output()
        _report(_describe_error(err, phase, solution.path))


def _solution_module(solution: Solution) -> types.ModuleType:
    """An importable module named "solution", as the arena imports the class: registered in
    sys.modules so dataclasses, pickle and copy resolve the solution's classes (under
    `python3 solution.py` they do); not "__main__", so a local test block does not run."""
    module = types.ModuleType("solution")
    module.__file__ = solution.path
    sys.modules["solution"] = module
    sys.argv[:] = [solution.path]
    return module


def _compile(solution: Solution) -> types.CodeType | None:
    """Compile the source here, in the confined and limited child (None: the failure is reported)."""
    try:
        return compile(solution.source, solution.path, "exec", dont_inherit=True)
    except SyntaxError as err:  # SyntaxWarnings went to the captured output, like any print
        where = f" (line {err.lineno})" if err.lineno else ""
        _report({"kind": "compile_error", "message": f"{type(err).__name__}: {err.msg}{where}"[:1000]})
    except BaseException as err:  # too deep, too big, a decoder that fails: the solution's own fault
        _flush_output()
        _report(_describe_error(err, "compile", solution.path))
    return None


def _run_program(solution: Solution) -> None:
    """Run a stdin program as `python3 program.py` would, once its input starts to arrive.

    It ends as the interpreter ends a script: other threads are waited for, atexit functions run,
    standard output is flushed. Then {"kind": "exit"} is reported; an exception, a non-zero
    `sys.exit` or a failure to write the output is reported as an error, as for a method.
    """
    code = _compile(solution)  # (no solution code runs before the input arrives; compiling runs none)
    if code is None:
        return
    if solution.compile_only:
        _report({"kind": "loaded"})
        return
    select.select([0], [], [])  # input (or its end) is there: the test has started
    _hide_judge_frames(keep=0)
    module = types.ModuleType("__main__")
    module.__file__ = solution.path
    sys.modules["__main__"] = module
    sys.argv[:] = [solution.path]
    failure = None
    try:
        exec(code, module.__dict__)
    except SystemExit as err:
        failure = None if err.code in (None, 0) else err
    except BaseException as err:  # anything else the program raises is its verdict
        failure = err
    try:
        threading = sys.modules.get("threading")
        if threading is not None:
            threading._shutdown()  # the interpreter waits for non-daemon threads before exiting
        atexit._run_exitfuncs()
        _flush_output(strict=True)
    except BaseException as err:
        failure = failure or err
    if failure is not None:
        _flush_output()
        _report(_describe_error(failure, "call", solution.path))
    else:
        _report({"kind": "exit"})


def _hide_judge_frames(keep: int) -> None:
    """Give the solution the recursion depth `python3 solution.py` gives it, on every test.

    The child was forked somewhere down the zygote's stack (the first test's child and the spares
    are forked from different places), and those frames count against the recursion limit.
    Raising the limit by their number, and showing the solution the limit without them, makes
    the code the caller runs next count as at depth `keep` + 1: a method as if module code
    called it (keep 1: the caller stands for the module frame), a program as a module (keep 0).
    The same depth on every test, whatever `sys.setrecursionlimit` the solution sets.
    """
    hidden, frame = -keep, sys._getframe(1)
    while frame is not None:
        hidden += 1
        frame = frame.f_back
    set_limit, get_limit = sys.setrecursionlimit, sys.getrecursionlimit

    def setrecursionlimit(limit, /):
        set_limit(limit + hidden if type(limit) is int and limit >= 1 else limit)

    def getrecursionlimit():
        return get_limit() - hidden

    setrecursionlimit.__doc__, getrecursionlimit.__doc__ = set_limit.__doc__, get_limit.__doc__
    set_limit(get_limit() + hidden)
    sys.setrecursionlimit, sys.getrecursionlimit = setrecursionlimit, getrecursionlimit


def _read_arguments() -> tuple | None:
    """One test's arguments from the argument pipe (JSON, closed by the zygote when complete)."""
    chunks = []
    while chunk := os.read(ARGS_FD, 1 << 16):
        chunks.append(chunk)
    os.close(ARGS_FD)
    args = json.loads(b"".join(chunks))
    return None if args is None else _as_tuples(args)


def _as_tuples(value):
    """Arguments as TopCoder hands them to Python: every array (JSON list) becomes a tuple."""
    return tuple(_as_tuples(item) for item in value) if isinstance(value, list) else value


def _plain(value, depth: int):
    """The returned value as JSON-ready data; objects that are not TopCoder values are only named."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int.__index__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, (list, tuple)) and depth < 2:
        return [_plain(item, depth + 1) for item in value]
    kind = type(value)
    module = kind.__dict__.get("__module__")  # the solution may have set it to anything
    module = str.__str__(module)[:200] if isinstance(module, str) else "?"
    return {UNSUPPORTED: f"{module}.{str.__str__(kind.__qualname__)[:200]}".removeprefix("builtins.")}


def _describe_error(err: BaseException, phase: str, path: str) -> dict:
    line = None
    for frame, lineno in traceback.walk_tb(err.__traceback__):
        if frame.f_code.co_filename == path:
            line = lineno
    if isinstance(err, SyntaxError) and err.filename == path:
        line = err.lineno
    try:
        message = str(err)[:300]
    except BaseException:
        message = "(the exception could not be shown)"
    errno = getattr(err, "errno", None)
    return {"kind": "error", "phase": phase, "type": type(err).__name__, "message": message, "line": line,
            "errno": errno if type(errno) is int else None}


def _report(message: dict) -> None:
    """One line on the result channel (JSON never contains a raw newline): its end ends the test."""
    data = json.dumps(message, allow_nan=True).encode() + b"\n"
    view = memoryview(data)
    while view:
        written = os.write(RESULT_FD, view)
        view = view[written:]


def _flush_output(strict: bool = False) -> None:
    """Flush what the solution printed; `strict`: a failure to write standard output is its error
    (a stdin program whose answer cannot be written has not answered)."""
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            if not stream.closed:  # as at the interpreter's exit: a stream the program closed is skipped
                stream.flush()
        except BaseException:
            if strict and (stream is sys.stdout or stream is sys.__stdout__):
                raise


def _drain(fd: int, into: bytearray, cap: int, poller, open_pipes: set, devnull: int) -> bool:
    """Read what is available; keep up to `cap` bytes. True when bytes past the cap were dropped.

    Past the cap, bytes go from the pipe to /dev/null inside the kernel (splice): never copied, so
    a solution that floods its output waits for nothing but its own CPU (docs/verdicts.md)."""
    dropped = False
    while True:
        room = cap - len(into)
        try:
            if room > 0:
                chunk = os.read(fd, 65536)
                moved = len(chunk)
            else:
                moved = os.splice(fd, devnull, DISCARD_CHUNK, flags=os.SPLICE_F_NONBLOCK)
                chunk = None
        except BlockingIOError:
            return dropped
        if not moved:
            poller.unregister(fd)
            open_pipes.discard(fd)
            return dropped
        if chunk is not None:
            into += chunk[:room]
            dropped |= moved > room
        else:
            dropped = True
        if os.get_blocking(fd):  # while the child runs: one call per wake-up, then back to poll
            return dropped


def die_with_parent(parent: int) -> None:
    """SIGKILL this process when `parent` dies, and end it now if `parent` is already gone: a
    parent killed between our fork and the prctl would otherwise leave us running under pid 1."""
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)


def _kill_group(pid: int) -> None:
    for target in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
        try:
            target()
        except (ProcessLookupError, PermissionError):
            pass


def _reap_orphans(known: set[int]) -> None:
    """Kill and reap descendants that escaped their test's process group and were re-parented to
    us (every child but the `known` ones, killed already and reaped on their own schedule)."""
    try:
        with open(f"/proc/self/task/{os.getpid()}/children") as handle:
            orphans = [int(pid) for pid in handle.read().split() if int(pid) not in known]
    except OSError:
        orphans = []
    for pid in orphans:
        _kill_group(pid)
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass


class Activity:
    """How long a child has been idle (no thread running or waiting for a CPU) and how long it has
    waited for a CPU, from the kernel: its CPU clock and each thread's run-queue wait
    (/proc/<pid>/task/*/schedstat).

    Figures are read first FIRST_LOOK into the test (the time before counts as neither idle nor
    waiting), then brought up to date only when a budget might be spent (update): a short test
    costs no reading at all. Between updates an interval counts as idle for what its wall
    time exceeds the CPU used, the longest wait of any thread, and whatever the zygote itself
    spent running or waiting for a CPU (the child may have been blocked on a pipe the zygote was
    slow to empty: that is never the solution's idle time). A wait is credited when the waiting
    thread gets its CPU, so it may show in the interval after the one it happened in; that
    interval's surplus is handed back to the previous one.
    """

    def __init__(self, pid: int, clock: int, started: float):
        self.pid, self.clock = pid, clock
        self.idle = 0.0  # seconds
        self.waited = 0.0  # seconds
        self._first_look = started + FIRST_LOOK
        self._at: float | None = None  # when the figures were last brought up to date; None: not yet
        self._cpu, self._delays, self._own = 0.0, {}, 0
        self._last_idle = 0.0

    def remaining(self, idle_limit: float, overload_wait: float) -> tuple[float, float]:
        """Lower bounds of what is left of the idle and waiting budgets: since the last update
        either can have grown by at most the wall time that passed. Nothing is counted before the
        first look (FIRST_LOOK after the start), so a short test never reads /proc."""
        now = time.monotonic()
        if self._at is None:
            if now < self._first_look:
                return idle_limit, overload_wait
            self._at, self._cpu = now, _cpu_seconds(self.clock, 0.0)
            self._delays, self._own = _thread_delays(self.pid), _own_schedule()
        since = now - self._at
        return idle_limit - self.idle - since, overload_wait - self.waited - since

    def until_first_look(self) -> float:
        """Seconds until the first look is due (infinite once it has been taken)."""
        return math.inf if self._at is not None else max(0.0, self._first_look - time.monotonic())

    def update(self) -> None:
        if self._at is None:
            return
        now, cpu, delays, own = time.monotonic(), _cpu_seconds(self.clock, self._cpu), _thread_delays(self.pid), _own_schedule()
        waited = max((delay - self._delays.get(tid, 0) for tid, delay in delays.items()), default=0) / 1e9
        idle = (now - self._at) - (cpu - self._cpu) - max(0.0, waited) - (own - self._own) / 1e9
        if idle >= 0:
            self.idle += idle
            self._last_idle = idle
        else:  # a wait credited late: it was counted as idle in the previous interval
            self.idle -= min(-idle, self._last_idle)
            self._last_idle = 0.0
        self.waited += max(0.0, waited)
        self._at, self._cpu, self._delays, self._own = now, cpu, delays, own

    def runnable(self) -> bool:
        """Whether a thread is running or waiting for a CPU right now (its wait not yet credited)."""
        for tid in _threads(self.pid):
            try:
                with open(f"/proc/{self.pid}/task/{tid}/stat", "rb") as handle:
                    if handle.read().rpartition(b")")[2].split()[0] == b"R":
                        return True
            except (OSError, IndexError):
                pass
        return False


def _cpu_seconds(clock: int, default: float) -> float:
    try:
        return time.clock_gettime(clock)
    except OSError:  # the process is gone
        return default


def _threads(pid: int) -> list[str]:
    try:
        return os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []


def _thread_delays(pid: int) -> dict[str, int]:
    """Each thread's nanoseconds spent waiting on a run queue (schedstat's second field)."""
    delays = {}
    for tid in _threads(pid):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat", "rb") as handle:
                delays[tid] = int(handle.read().split()[1])
        except (OSError, IndexError, ValueError):
            pass
    return delays


def _own_schedule() -> int:
    """Nanoseconds the zygote has spent on a CPU or waiting for one."""
    try:
        with open("/proc/thread-self/schedstat", "rb") as handle:
            ran, waited = handle.read().split()[:2]
        return int(ran) + int(waited)
    except (OSError, ValueError):
        return 0


def _hold_child_descriptors(devnull: int) -> list[int]:
    """Occupy every free descriptor up to ARGS_FD (a child dup2s its channels there), so what is
    opened next lands above them; the caller closes the returned placeholders."""
    held = []
    while (fd := os.dup(devnull)) <= ARGS_FD:
        held.append(fd)
    os.close(fd)
    return held


def _await_ready(child: Child) -> tuple[float, str | None]:
    """For a runtime that says when it is up (the JVM): wait for its ready line. Returns the CPU
    time it used until then, which is not charged to the solution (its class is not initialized
    before), or why it never became ready."""
    clock = process_cpu_clock(child.pid)
    deadline = time.monotonic() + Program.READY_TIMEOUT
    line = b""
    while len(line) < len(Program.READY_LINE):
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([child.result_r], [], [], remaining)[0]:
            return 0.0, f"the runtime did not start within {Program.READY_TIMEOUT:g} s"
        chunk = os.read(child.result_r, len(Program.READY_LINE) - len(line))
        if not chunk:
            return 0.0, "the runtime ended before it was ready"
        line += chunk
    if line != Program.READY_LINE:
        return 0.0, f"the runtime did not say it was ready (it said {line!r})"
    try:
        return time.clock_gettime(clock), None
    except OSError:
        return 0.0, "the runtime ended before it was ready"


def _live_usage(clock: int, pid: int) -> tuple[float, int] | None:
    """(CPU seconds, peak resident KiB) of a live process, from its CPU clock and VmHWM (what
    wait4 would report); None once it is exiting and the kernel no longer shows its memory."""
    try:
        cpu = time.clock_gettime(clock)
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return cpu, int(line.split()[1])
    except OSError:
        pass
    return None


def _vm_data_bytes() -> int:
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith("VmData:"):
                return int(line.split()[1]) * 1024
    return 0


def _open_cgroups():
    """This zygote's folder of per-test cgroups, or None and why not (never fatal)."""
    try:
        from tcjudge.engine.sandbox import cgroup

        cgroup.sweep()  # left by zygotes killed before they could clean up
        return cgroup.Cgroups.open(f"{cgroup.PREFIX}{os.getpid()}")
    except Exception as err:  # noqa: BLE001 - an optional layer
        return None, f"{type(err).__name__}: {err}"


def _load_confinement(project_root: str, readable: list[str] = (), profile: str = "python"):
    """The kernel confinement layers, prepared once here (once per compiled program: its folder
    and runtime become readable, its profile allows the exec) and entered by every child.

    Returns (confinement or None, problems): a layer that cannot be prepared is reported, never fatal.
    The project folder (problems, expected outputs, reports) must stay unreadable to solutions.
    """
    try:
        from tcjudge.engine import sandbox

        return sandbox.prepare(readable, must_not_cover=[project_root], profile=sandbox.PROFILES[profile]), []
    except Exception as err:  # any failure of an optional layer degrades to running without it
        return None, [f"confinement unavailable: {type(err).__name__}: {err}"]


def serve(confine: bool = True, judge: int | None = None) -> None:
    """Answer requests until the judge closes our stdin; `confine`: enter the kernel layers;
    `judge`: the judge's pid (we end with it, even if it ended before we could ask to)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the judge's to handle
    die_with_parent(os.getppid() if judge is None else judge)
    _libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    # A child's channels go to descriptors 3 and 4 (RESULT_FD, ARGS_FD): hold both before the
    # confinement layers open theirs, so a child's dup2 can never clobber a descriptor they keep.
    devnull = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
    placeholder = os.dup(devnull)
    if (devnull, placeholder) != (RESULT_FD, ARGS_FD):
        raise RuntimeError("the zygote must start with only descriptors 0, 1 and 2 open")
    project_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    confinement, problems = _load_confinement(project_root) if confine else (None, ["kernel layers off"])
    os.close(placeholder)
    sys.path[:] = [entry for entry in sys.path if entry != project_root]  # solutions import no judge code
    cgroups, no_cgroups = _open_cgroups() if confine else (None, "kernel layers off")
    zygote = Zygote(confinement, devnull, project_root, cgroups)
    _send({"ready": True, "baseline_kib": _baseline_kib(), "problems": problems,
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
    zygote.discard_spare()
    for pid in zygote.ending:
        os.waitpid(pid, 0)
    zygote.ending = []
    if cgroups is not None:
        zygote.release_cgroups()
        cgroups.close()


def _send(message: dict) -> None:
    view = memoryview(json.dumps(message).encode() + b"\n")
    while view:
        view = view[os.write(1, view):]


def _baseline_kib() -> int:
    """Peak memory of a child that does nothing: what every test's figure includes before the solution."""
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    return os.wait4(pid, 0)[2].ru_maxrss
