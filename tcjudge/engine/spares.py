"""Zygotes started before they are needed, so that their start (an interpreter and the kernel
layers: 50-150 ms) overlaps other work instead of delaying the first test.

A spare is a fresh zygote that has never been given a solution, so it may serve any solution: a
zygote that served one is never handed another (engine/pool.py), and is not kept here. `grade`
starts spares while it reads the problem; a cluster worker process keeps one ready between its tasks
(`ahead`), so a task finds its zygote started while the previous task ran.

Spares are started from a thread of their own that lives until close(): a zygote ends with the
thread that started it (PR_SET_PDEATHSIG follows the parent thread, not its process), and a taker's
thread may end long before the spare it asked for is used (a Pool's worker threads end with each
grading).
"""

from __future__ import annotations

import sys
import threading

from .worker import Worker, close_workers


class Spares:
    """Started zygotes, handed out one at a time (thread-safe); each goes to one taker only."""

    def __init__(self, python: str = sys.executable, confine: bool = True, ahead: int = 0):
        """`ahead`: how many to keep started after each take (0: only those start() asks for)."""
        self.python, self.confine, self.ahead = python, confine, ahead
        self._started: list[Worker] = []
        self._asked = 0  # to be started by the starter thread
        self._closed = False
        self._changed = threading.Condition()
        self._starter = threading.Thread(target=self._start_asked, name="spare-zygotes", daemon=True)
        self._starter.start()

    def __enter__(self) -> Spares:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self, count: int = 1) -> None:
        """Have `count` more zygotes started, without waiting for them."""
        with self._changed:
            self._asked += count
            self._changed.notify_all()

    def take(self, cpu: int | None = None) -> Worker:
        """A ready zygote pinned to `cpu`: a started one (waiting for one being started), else (none
        asked for, or it died meanwhile) a new one; then as many are asked for as `ahead` says.
        Raises WorkerDied as Worker() does."""
        with self._changed:
            while not self._started and self._asked and not self._closed:
                self._changed.wait()
            worker = self._started.pop(0) if self._started else None
            self._asked += max(0, self.ahead - len(self._started) - self._asked)
            self._changed.notify_all()
        if worker is not None and not worker.alive():
            worker.close()
            worker = None
        worker = worker or Worker(self.python, self.confine, wait=False)
        worker.pin(cpu)
        worker.wait_ready()
        return worker

    def close(self) -> None:
        """End the zygotes nobody took (and the starter thread: a taken zygote is its taker's to close
        before this)."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        self._starter.join()
        left, self._started = self._started, []
        close_workers(left)

    def _start_asked(self) -> None:
        while True:
            with self._changed:
                while not self._asked and not self._closed:
                    self._changed.wait()
                if self._closed:
                    return
            try:
                started = [Worker(self.python, self.confine, wait=False)]
            except Exception:  # noqa: BLE001 - out of processes or memory, or a fault of ours: a taker then
                started = []  # starts its own and says why (this thread ended by it left every taker waiting)
            with self._changed:
                self._asked -= 1
                self._started += started
                self._changed.notify_all()
