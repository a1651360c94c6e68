"""Hang guards for the tests that do not depend on how busy the machine is (issue 45).

A wall-clock timeout on a command fails it on a busy machine (at load 14 on 2 cores a command gets
a seventh of a core: 60 s of wall time is 9 s of CPU) although nothing is wrong. The judge itself
stops a solution by its CPU time and by time it spends idle, never by wall time; the tests stop what
they start by the same two rules:
- a CPU budget: the seconds of CPU the process and everything it started used (the live processes'
  own and reaped children's times, from psutil);
- an idle limit: seconds during which that tree used no CPU while none of it was runnable (a
  deadlock, a wait for something that never comes). Time spent waiting for a CPU is not idle.
A command that passes either is killed, with its whole tree, and the test fails saying which.
"""

from __future__ import annotations

import subprocess
import threading
import time

import psutil

POLL = 0.5  # s between looks at the tree
IDLE = 180.0  # s a tree may use no CPU with nothing runnable before it counts as hung


class OverBudget(AssertionError):
    """The command used more CPU than its budget, or sat idle past the idle limit."""


def tree_cpu(root: psutil.Process) -> tuple[float, bool]:
    """Seconds of CPU used by `root` and its descendants (reaped ones through their parents' children
    times), and whether any of them is runnable now."""
    total, runnable = 0.0, False
    try:
        processes = [root] + root.children(recursive=True)
    except psutil.Error:
        return 0.0, False
    for process in processes:
        try:
            with process.oneshot():
                times = process.cpu_times()
                total += times.user + times.system + times.children_user + times.children_system
                runnable |= process.status() == psutil.STATUS_RUNNING
        except psutil.Error:  # ended meanwhile: its time is its parent's once reaped
            pass
    return total, runnable


def kill_tree(root: psutil.Process) -> None:
    try:
        processes = root.children(recursive=True) + [root]
    except psutil.Error:
        return
    for process in processes:
        try:
            process.kill()
        except psutil.Error:
            pass


class Watch:
    """Watch process `pid` (and its descendants) from a thread: over `cpu` seconds of CPU, or idle for
    `idle` seconds, the tree is killed and `reason` says why."""

    def __init__(self, pid: int, cpu: float, idle: float = IDLE):
        self.cpu, self.idle, self.reason = cpu, idle, ""
        self._root = psutil.Process(pid)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        used, last_change = 0.0, time.monotonic()
        while not self._stop.wait(POLL):
            now_used, runnable = tree_cpu(self._root)
            if now_used > used + 0.01 or runnable:
                last_change = time.monotonic()
            used = max(used, now_used)
            if used > self.cpu:
                self.reason = f"used more than {self.cpu:g} s of CPU ({used:.1f} s)"
            elif time.monotonic() - last_change > self.idle:
                self.reason = f"idle for {self.idle:g} s (no CPU used, nothing runnable: hung?)"
            if self.reason:
                kill_tree(self._root)
                return

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def check(self, what: str = "the command") -> None:
        if self.reason:
            raise OverBudget(f"{what} {self.reason}")


def run(args, *, cpu: float, idle: float = IDLE, input: str | bytes | None = None, **popen) -> subprocess.CompletedProcess:
    """subprocess.run, bounded by a CPU budget and an idle limit instead of a wall-clock timeout;
    raises OverBudget (an AssertionError: the test fails) when the command passes either."""
    capture = popen.pop("capture_output", False)
    if capture:
        popen["stdout"] = popen["stderr"] = subprocess.PIPE
    if input is not None:
        popen["stdin"] = subprocess.PIPE
    check = popen.pop("check", False)
    with subprocess.Popen(args, **popen) as process:
        watch = Watch(process.pid, cpu, idle)
        try:
            out, err = process.communicate(input)
        finally:
            watch.stop()
    watch.check(f"{args if isinstance(args, str) else ' '.join(map(str, args))[:200]}:")
    done = subprocess.CompletedProcess(args, process.returncode, out, err)
    if check:
        done.check_returncode()
    return done


def wait(process: subprocess.Popen, *, cpu: float, idle: float = IDLE) -> int:
    """Popen.wait, bounded as run() is."""
    watch = Watch(process.pid, cpu, idle)
    try:
        code = process.wait()
    finally:
        watch.stop()
    watch.check(f"{process.args}:")
    return code
