"""Zygotes started before they are needed, so that their start (an interpreter and the kernel
layers: 50-150 ms) overlaps other work instead of delaying the first test.

A spare is a fresh zygote that has never been given a solution, so it may serve any solution: a
zygote that served one is never handed another (engine/pool.py), and is not kept here. `grade`
starts spares while it reads the problem; a cluster worker process keeps one ready between its tasks
(`ahead`), so a task finds its zygote started while the previous task ran.
"""

from __future__ import annotations

import sys
import threading

from .worker import Worker, remove_stale_cgroups


class Spares:
    """Started zygotes, handed out one at a time (thread-safe); each goes to one taker only."""

    def __init__(self, python: str = sys.executable, confine: bool = True, ahead: int = 0):
        """`ahead`: how many to keep started after each take (0: only those start() started)."""
        self.python, self.confine, self.ahead = python, confine, ahead
        self._started: list[Worker] = []
        self._lock = threading.Lock()

    def __enter__(self) -> Spares:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self, count: int = 1) -> None:
        """Start `count` zygotes now, without waiting for them."""
        with self._lock:
            self._started += [Worker(self.python, self.confine, wait=False) for _ in range(count)]

    def take(self, cpu: int | None = None) -> Worker:
        """A ready zygote pinned to `cpu`: a started one, else (none left, or it died meanwhile) a new
        one; then as many are started as `ahead` asks. Raises WorkerDied as Worker() does."""
        with self._lock:
            worker = self._started.pop(0) if self._started else None
            self._started += [Worker(self.python, self.confine, wait=False)
                              for _ in range(self.ahead - len(self._started))]
        if worker is not None and not worker.alive():
            worker.close()
            worker = None
        worker = worker or Worker(self.python, self.confine, wait=False)
        worker.pin(cpu)
        worker.wait_ready()
        return worker

    def close(self) -> None:
        """End the zygotes nobody took."""
        with self._lock:
            left, self._started = self._started, []
        for worker in left:
            worker.close()
        if left:
            remove_stale_cgroups()
