"""`unordered`: an array holds the same elements as the expected one, in any order, counting repeats
(rows of a 2-D array likewise); combines with `ignore_case`."""

from __future__ import annotations

from typing import Any

from . import VALUE, Checker, Comparison, exact

APPLIES_TO = VALUE
COMBINES = True


def check(given: dict, expected: Any, got: Any, settings: Checker) -> Comparison:
    return exact.relaxed(expected, got, settings, "unordered")
