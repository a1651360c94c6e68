"""`exact` (the default): the returned value equals the expected one element by element, TopCoder
style; doubles (alone or inside arrays) match within the problem's double_tolerance.

This module holds the one comparison of values; `unordered` and `ignore_case` relax it, alone or
combined, and every name the problem gave (settings.names) applies.
"""

from __future__ import annotations

import functools
import math
from typing import Any, Callable

from ...record import record
from ..tctypes import TCType, shorten
from . import VALUE, Checker, Comparison

APPLIES_TO = VALUE
COMBINES = True
STRING_SHOWN = 30  # strings longer than this are shown around their first difference


@record(frozen=True)
class Options:
    """How two values of the return type are compared (the built-in checkers' relaxations)."""

    tolerance: float = 1e-9
    unordered: bool = False
    ignore_case: bool = False


def check(given: dict, expected: Any, got: Any, settings: Checker) -> Comparison:
    return relaxed(expected, got, settings)


def relaxed(expected: Any, got: Any, settings: Checker, *also: str) -> Comparison:
    """The comparison with every relaxation the problem named, and `also` these."""
    difference = _difference(expected, got, settings.returns, _options(settings.tolerance, settings.names, also))
    return Comparison(True) if difference is None else Comparison(False, difference)


@functools.cache
def _options(tolerance: float, names: tuple[str, ...], also: tuple[str, ...]) -> Options:
    """Options for these names, made once per problem rather than once per test."""
    names += also
    return Options(tolerance, "unordered" in names, "ignore_case" in names)


def _difference(expected: Any, got: Any, tctype: TCType, options: Options) -> str | None:
    if tctype.dims:
        if len(expected) != len(got):
            return f"expected {len(expected)} elements, got {len(got)}: expected {_show(expected)}, got {_show(got)}"
        pairs = zip(expected, got)
        if options.unordered:
            pairs = zip(sorted(expected, key=_sort_key(options)), sorted(got, key=_sort_key(options)))
        for index, (want, have) in enumerate(pairs):
            inner = _difference(want, have, tctype.element, options)
            if inner:
                if options.unordered:
                    return f"expected {_show(expected)} in any order, got {_show(got)}"
                return f"element {index}: {inner}" if tctype.dims > 1 or len(expected) > 8 else (
                    f"expected {_show(expected)}, got {_show(got)}"
                )
        return None
    if tctype.base == "double":
        return None if doubles_match(expected, got, options.tolerance) else f"expected {expected!r}, got {got!r}"
    if tctype.base == "String" and options.ignore_case:
        return None if expected.casefold() == got.casefold() else f"expected {_show(expected)} (any case), got {_show(got)}"
    if expected == got:
        return None
    if isinstance(expected, str) and isinstance(got, str) and max(len(expected), len(got)) > STRING_SHOWN:
        return _string_difference(expected, got)
    return f"expected {_show(expected)}, got {_show(got)}"


def _string_difference(expected: str, got: str) -> str:
    """Long strings: where they first differ, and a window of each around that place."""
    at = next((i for i, (a, b) in enumerate(zip(expected, got)) if a != b), min(len(expected), len(got)))
    start = max(0, at - 10)

    def window(text: str) -> str:
        return ("..." if start else "") + repr(text[start:at + 20]) + ("..." if len(text) > at + 20 else "")

    lengths = f" (lengths {len(expected)} and {len(got)})" if len(expected) != len(got) else ""
    return f"first difference at character {at}{lengths}: expected {window(expected)}, got {window(got)}"


def _sort_key(options: Options) -> Callable[[Any], Any]:
    """Orders values so that equal ones (in this checker's sense) meet at the same position."""

    def key(value: Any) -> Any:
        if isinstance(value, (list, tuple)):
            return tuple(key(item) for item in value)
        if isinstance(value, str):
            return (value.casefold(),) if options.ignore_case else (value,)
        return (float("inf"),) if isinstance(value, float) and math.isnan(value) else (value,)

    return key


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
