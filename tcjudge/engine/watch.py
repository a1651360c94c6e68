"""The zygote's eyes on a running child, from outside it: CPU clock, idle and waiting time from the
kernel's scheduler statistics, peak memory, and the pipes drained without ever blocking.

Runs in the zygote (trusted); reads /proc and the child's pipes, never anything the child hands it
as a claim about itself.
"""

from __future__ import annotations

import math
import os
import time

from ..protocol import READY_LINE, ready_to_read
from .processes import kill_group
from .sandbox._sys import read_whole

DISCARD_CHUNK = 1 << 30  # bytes spliced to /dev/null per call: as much as the pipe holds
FIRST_LOOK = 0.05  # seconds into a test before its idle and waiting time are counted (short tests never are)
CPUCLOCK_SCHED = 2


def process_cpu_clock(pid: int) -> int:
    """The clock id of another process's CPU time (Linux's MAKE_PROCESS_CPUCLOCK)."""
    return ((~pid) << 3) | CPUCLOCK_SCHED


def drain(fd: int, into: bytearray, cap: int, poller, open_pipes: set, devnull: int) -> bool:
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
    interval's surplus is handed back to the previous one. An interactive program's `partner` (the
    interactor) is treated as the zygote is: the time it spent running or waiting for a CPU is never
    the program's idle time (a program that waits for a slow interactor is charged nothing). A test
    that may be a `tree` of processes (engine/tree.py) is one child: the CPU of all its processes,
    and the waits of all their threads.
    """

    def __init__(self, pid: int, clock: int, started: float, partner: int | None = None, tree=None):
        self.pid, self.clock, self.tree = pid, clock, tree
        self._partner = partner
        self._partner_clock = None if partner is None else process_cpu_clock(partner)
        self._partner_busy = 0.0
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
            self._at, self._cpu = now, self._cpu_seconds(0.0)
            self._delays, self._own = self._thread_delays(), _own_schedule()
            self._partner_busy = self._partner_time()
        since = now - self._at
        return idle_limit - self.idle - since, overload_wait - self.waited - since

    def until_first_look(self) -> float:
        """Seconds until the first look is due (infinite once it has been taken)."""
        return math.inf if self._at is not None else max(0.0, self._first_look - time.monotonic())

    def update(self) -> None:
        if self._at is None:
            return
        now, cpu, delays, own = time.monotonic(), self._cpu_seconds(self._cpu), self._thread_delays(), _own_schedule()
        partner = self._partner_time()
        waited = max((delay - self._delays.get(tid, 0) for tid, delay in delays.items()), default=0) / 1e9
        idle = ((now - self._at) - (cpu - self._cpu) - max(0.0, waited) - (own - self._own) / 1e9
                - (partner - self._partner_busy))
        if idle >= 0:
            self.idle += idle
            self._last_idle = idle
        else:  # a wait credited late: it was counted as idle in the previous interval
            self.idle -= min(-idle, self._last_idle)
            self._last_idle = 0.0
        self.waited += max(0.0, waited)
        self._at, self._cpu, self._delays, self._own, self._partner_busy = now, cpu, delays, own, partner

    def cpu_now(self) -> float:
        """The child's CPU seconds (a tree's: all its processes'); OSError once a lone child is gone."""
        return self.tree.cpu() if self.tree is not None else time.clock_gettime(self.clock)

    def _cpu_seconds(self, default: float) -> float:
        return self.tree.cpu() if self.tree is not None else _cpu_seconds(self.clock, default)

    def _thread_delays(self) -> dict[str, int]:
        """Each thread's run-queue wait, of every process of a tree (keys "pid/tid")."""
        if self.tree is None:
            return _thread_delays(self.pid)
        return {f"{pid}/{tid}": delay for pid in self.tree.pids() for tid, delay in _thread_delays(pid).items()}

    def _partner_time(self) -> float:
        """Seconds the partner has run (its CPU clock) and its threads have waited for a CPU; what
        was last read once it is gone."""
        if self._partner_clock is None:
            return 0.0
        waits = sum(_thread_delays(self._partner).values()) / 1e9
        ran = _cpu_seconds(self._partner_clock, -1.0)
        return self._partner_busy if ran < 0 else ran + waits

    def runnable(self) -> bool:
        """Whether a thread (of any process of a tree) is running or waiting for a CPU right now (its
        wait not yet credited)."""
        for pid in self.tree.pids() if self.tree is not None else (self.pid,):
            for tid in _threads(pid):
                try:
                    with open(f"/proc/{pid}/task/{tid}/stat", "rb") as handle:
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


def live_usage(clock: int, pid: int) -> tuple[float, int] | None:
    """(CPU seconds, peak resident KiB) of a live process, from its CPU clock and VmHWM (what
    wait4 would report); None once it is exiting and the kernel no longer shows its memory."""
    try:
        cpu = time.clock_gettime(clock)
        status = read_whole(f"/proc/{pid}/status")
    except OSError:
        return None
    start = status.find(b"\nVmHWM:")
    return None if start < 0 else (cpu, int(status[start + 7:status.index(b"\n", start + 1)].split()[0]))


def reset_peak(pid: int) -> int | None:
    """Reset a live process's resident high-water mark (VmHWM) to what it holds now, and return that
    (KiB): a runtime that serves many tests then shows each test's own peak. None where the kernel
    refuses (no permission on /proc/<pid>/clear_refs, a process already gone)."""
    try:
        with open(f"/proc/{pid}/clear_refs", "wb", buffering=0) as handle:
            handle.write(b"5")
        with open(f"/proc/{pid}/status", "rb") as handle:
            for line in handle:
                if line.startswith(b"VmRSS:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


class Child:
    """A forked child that has loaded the solution and waits on its argument pipe for one test.

    `setup_r` carries the harness's own set-up errors; the child closes its end before any solution
    code runs, so a solution cannot pass itself off as the judge's fault.
    """

    __slots__ = ("pid", "args_w", "result_r", "output_r", "setup_r", "answer_r", "interaction", "cpu", "crash_r",
                 "base_kib", "ready_kib", "ended_cpu")

    def __init__(self, pid: int, args_w: int, result_r: int, output_r: int, setup_r: int, answer_r: int | None,
                 interaction: tuple[int, int, int, int] | None = None, cpu: int = -1, crash_r: int | None = None):
        self.pid, self.args_w, self.result_r, self.output_r, self.setup_r = pid, args_w, result_r, output_r, setup_r
        self.crash_r = crash_r  # what it says of its own crash (tcjudge.protocol: the crash channel)
        self.answer_r = answer_r  # a stdin program's standard output; None for a method
        # an interactive program's standard input (write end) and output (read end), for its interactor,
        # then the program's own ends of them, which the zygote holds (engine/interaction.py)
        self.interaction = interaction
        self.cpu = cpu  # the one CPU it runs on (-1: unknown)
        # A runtime that serves many tests: its resident memory when it was first ready, and when it
        # was last ready (its peak reset there); None for a child that runs one test.
        self.base_kib: int | None = None
        self.ready_kib: int | None = None
        # A serving runtime's CPU clock when its last test ended: its next test is charged from there,
        # so what it does between tests (its own threads, or a solution that took its loop over) counts.
        self.ended_cpu = 0.0

    def setup_error(self) -> str | None:
        """What the child said went wrong before the solution ran (read once it has ended)."""
        return _written(self.setup_r, 4096).decode("utf-8", "replace") or None

    def crash(self, cap: int) -> bytes:
        """What it wrote on its crash channel, at most `cap` bytes (read once it has ended)."""
        return _written(self.crash_r, cap) if self.crash_r is not None else b""

    def close(self) -> None:
        for fd in (self.result_r, self.output_r, self.setup_r, self.answer_r, self.crash_r,
                   *(self.interaction or ())):
            if fd is not None:
                os.close(fd)
        self.interaction = None

    def discard(self) -> None:
        kill_group(self.pid)
        os.waitpid(self.pid, 0)
        if self.args_w is not None:
            os.close(self.args_w)
        self.close()


def _written(fd: int, cap: int) -> bytes:
    """Up to `cap` bytes a pipe holds now, without waiting for more (a stray descendant may hold it open)."""
    os.set_blocking(fd, False)
    data = b""
    while len(data) < cap:
        try:
            chunk = os.read(fd, cap - len(data))
        except BlockingIOError:
            break
        if not chunk:
            break
        data += chunk
    return data


def await_ready(child: Child, timeout: float, cpu_bound: float | None = None) -> tuple[float, str | None]:
    """For a runtime that says when it is up (the JVM): wait for its ready line. Returns the CPU
    time it used until then, which is not charged to the solution (its class is not initialized
    before), or why it never became ready. With `cpu_bound` (a serving runtime, whose next test is
    charged from its last test's end): the wait also ends, with no reason, once its CPU clock passes
    that bound, the next test's limit spent before it began (TLE)."""
    clock = process_cpu_clock(child.pid)
    deadline = time.monotonic() + timeout
    cores = max(1, len(os.sched_getaffinity(0)))
    line = b""
    while len(line) < len(READY_LINE):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return 0.0, f"the runtime did not start within {timeout:g} s"
        if cpu_bound is not None:
            try:
                used = time.clock_gettime(clock)
            except OSError:
                return 0.0, "the runtime ended before it was ready"
            if used >= cpu_bound:
                return used, None
            remaining = min(remaining, (cpu_bound - used) / cores)
        if not ready_to_read([child.result_r], remaining):
            continue
        chunk = os.read(child.result_r, len(READY_LINE) - len(line))
        if not chunk:
            return 0.0, "the runtime ended before it was ready"
        line += chunk
    if line != READY_LINE:
        return 0.0, f"the runtime did not say it was ready (it said {line!r})"
    try:
        return time.clock_gettime(clock), None
    except OSError:
        return 0.0, "the runtime ended before it was ready"
