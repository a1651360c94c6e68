"""Compare a returned value with the expected one, TopCoder style, or as the problem's checker says.

The returned value arrives here as plain data decoded from JSON in the judge, so nothing the solution
defined (an __eq__ that always says yes, a str subclass) takes part in the comparison. Built-in
checkers (problem.yaml `checker:`): `exact` (the default), `unordered` (arrays in any order),
`ignore_case` (strings in any letter case); they combine (`checker: [unordered, ignore_case]`), and
doubles always match within `double_tolerance`. `custom` calls the problem's own checker.py, for
problems with several right answers.
"""

from __future__ import annotations

import importlib.util
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .tctypes import TCType, shorten

BUILT_IN = ("exact", "unordered", "ignore_case")
CUSTOM = "custom"
CHECKER_FILE = "checker.py"


@dataclass(frozen=True)
class Comparison:
    ok: bool
    message: str = ""
    judge_fault: bool = False  # the problem's own checker failed: an internal error, not the solution's


@dataclass(frozen=True)
class Options:
    """How two values of the return type are compared (built-in checkers)."""

    tolerance: float = 1e-9
    unordered: bool = False
    ignore_case: bool = False


def compare(expected: Any, got: Any, returns: TCType, tolerance: float = 1e-9,
            options: Options | None = None) -> Comparison:
    """Type-check `got` against the return type, then compare it with `expected`."""
    mismatch = returns.mismatch(got)
    if mismatch:
        return Comparison(False, f"wrong type: {mismatch}")
    difference = _difference(expected, got, returns, options or Options(tolerance))
    if difference is None:
        return Comparison(True)
    return Comparison(False, difference)


class Checker:
    """A problem's answer check: `checker(args, expected, got)` -> Comparison.

    `args` maps parameter names to the values the solution received. A custom check(args, expected,
    got) returns None (accepted) or a message (wrong answer); if it raises or returns anything else,
    that is the checker's fault and becomes an internal error with its message.
    """

    def __init__(self, returns: TCType, names: tuple[str, ...] = ("exact",), tolerance: float = 1e-9,
                 custom: Callable[[dict, Any, Any], Any] | None = None, parameters: tuple[str, ...] = ()):
        self.returns = returns
        self.options = Options(tolerance, "unordered" in names, "ignore_case" in names)
        self.custom = custom
        self.parameters = parameters

    def __call__(self, args: tuple, expected: Any, got: Any) -> Comparison:
        if self.custom is None:
            return compare(expected, got, self.returns, options=self.options)
        mismatch = self.returns.mismatch(got)
        if mismatch:
            return Comparison(False, f"wrong type: {mismatch}")
        try:
            verdict = self.custom(dict(zip(self.parameters, args)), expected, _as_argument(got))
        except Exception as err:  # the setter's checker failed: never the solution's fault
            return Comparison(False, f"the problem's checker failed: {type(err).__name__}: {shorten(str(err), 200)}",
                              judge_fault=True)
        if verdict is None:
            return Comparison(True)
        if isinstance(verdict, str):
            return Comparison(False, shorten(verdict, 200))
        return Comparison(False, f"the problem's checker returned {type(verdict).__name__}, not None or a message",
                          judge_fault=True)


def load_custom_checker(path: Path) -> Callable[[dict, Any, Any], Any]:
    """check() from a problem's checker.py (the problem setter's code: trusted, run in the judge)."""
    spec = importlib.util.spec_from_file_location(f"_checker_{path.parent.name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    check = getattr(module, "check", None)
    if not callable(check):
        raise AttributeError("checker.py defines no check(args, expected, got) function")
    return check


def _as_argument(value: Any) -> Any:
    return tuple(_as_argument(item) for item in value) if isinstance(value, (list, tuple)) else value


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


STRING_SHOWN = 30  # strings longer than this are shown around their first difference


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
