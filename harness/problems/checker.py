"""Compare a returned value with the expected one, TopCoder style.

The returned value arrives here as plain data decoded from JSON in the judge, so nothing the solution
defined (an __eq__ that always says yes, a str subclass) takes part in the comparison.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .tctypes import TCType, shorten


@dataclass(frozen=True)
class Comparison:
    ok: bool
    message: str = ""


def compare(expected: Any, got: Any, returns: TCType, tolerance: float = 1e-9) -> Comparison:
    """Type-check `got` against the return type, then compare it with `expected`."""
    mismatch = returns.mismatch(got)
    if mismatch:
        return Comparison(False, f"wrong type: {mismatch}")
    difference = _difference(expected, got, returns, tolerance)
    if difference is None:
        return Comparison(True)
    return Comparison(False, difference)


def _difference(expected: Any, got: Any, tctype: TCType, tolerance: float) -> str | None:
    if tctype.dims:
        if len(expected) != len(got):
            return f"expected {len(expected)} elements, got {len(got)}: expected {_show(expected)}, got {_show(got)}"
        for index, (want, have) in enumerate(zip(expected, got)):
            inner = _difference(want, have, tctype.element, tolerance)
            if inner:
                return f"element {index}: {inner}" if tctype.dims > 1 or len(expected) > 8 else (
                    f"expected {_show(expected)}, got {_show(got)}"
                )
        return None
    if tctype.base == "double":
        return None if doubles_match(expected, got, tolerance) else f"expected {expected!r}, got {got!r}"
    return None if expected == got else f"expected {_show(expected)}, got {_show(got)}"


def doubles_match(expected: float, got: float, tolerance: float) -> bool:
    """Absolute or relative error within `tolerance`; NaN and infinities never pass unless equal."""
    if math.isnan(got) or math.isnan(expected):
        return False
    if math.isinf(got) or math.isinf(expected):
        return got == expected
    error = abs(got - expected)
    return error <= tolerance or error <= tolerance * abs(expected)


def _show(value: Any) -> str:
    return shorten(repr(list(value) if isinstance(value, tuple) else value), 80)
