"""`custom`: the problem's own checker.py says whether an answer is right (problems with several right
answers). It decides alone.

checker.py defines check(args, expected, got): `args` the parameters by name, as the solution received
them, and `got` already of the return type, arrays as tuples; it returns None (accepted) or a message
(wrong answer). If it raises or returns anything else, that is the checker's fault: an internal error
with its message. It is the problem setter's code (trusted, run in the judge), but `got` is whatever
the solution returned.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any, Callable

from ..tctypes import shorten
from . import VALUE, Checker, Comparison

APPLIES_TO = VALUE
COMBINES = False
CHECKER_FILE = "checker.py"


def check(given: dict, expected: Any, got: Any, settings: Checker) -> Comparison:
    try:
        verdict = settings.custom(given, expected, _as_argument(got))
    except Exception as err:  # the setter's checker failed: never the solution's fault
        return Comparison(False, f"the problem's checker failed: {type(err).__name__}: {shorten(str(err), 200)}",
                          judge_fault=True)
    if verdict is None:
        return Comparison(True)
    if isinstance(verdict, str):
        return Comparison(False, shorten(verdict, 200))
    return Comparison(False, f"the problem's checker returned {type(verdict).__name__}, not None or a message",
                      judge_fault=True)


def load(path: Path) -> Callable[[dict, Any, Any], Any]:
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
