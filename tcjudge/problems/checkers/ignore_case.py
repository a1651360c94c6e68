"""`ignore_case`: a string (alone or in arrays) equals the expected one in any letter case; combines
with `unordered`."""

from __future__ import annotations

from typing import Any

from . import VALUE, Checker, Comparison, exact

APPLIES_TO = VALUE
COMBINES = True


def check(given: dict, expected: Any, got: Any, settings: Checker) -> Comparison:
    return exact.relaxed(expected, got, settings, "ignore_case")
