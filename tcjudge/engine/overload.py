"""A busy machine costs time, not verdicts: how many tests of a pool run at once, and the test that
found the machine overloaded (engine/pool.py grades it again; docs/verdicts.md)."""

from __future__ import annotations

import threading

from .results import TestResult


class Gate:
    """How many tests of a pool run at once: one per worker thread until a test finds the machine
    overloaded, then one, for the rest of the pool's life: a busy machine costs time, not verdicts.
    A thread whose next test was sent ahead stays inside: that test already runs in its zygote."""

    def __init__(self):
        self._changed = threading.Condition()
        self._inside = 0
        self.limit: int | None = None  # None: every worker thread at once

    def enter(self) -> None:
        with self._changed:
            while self.limit is not None and self._inside >= self.limit:
                self._changed.wait()
            self._inside += 1

    def leave(self) -> None:
        with self._changed:
            self._inside -= 1
            self._changed.notify_all()

    def back_off(self) -> None:
        with self._changed:
            self.limit = 1
            self._changed.notify_all()


class Overloaded(Exception):
    """A test the machine could not give a CPU (its result, IE, is kept for when the retries run out);
    `loading`: it was the solution's load that waited (its IE is then the whole run's)."""

    def __init__(self, result: TestResult, loading: bool = False):
        super().__init__(result.message)
        self.result = result
        self.loading = loading
