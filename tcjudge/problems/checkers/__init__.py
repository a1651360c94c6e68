"""Answer checkers, one module per checker (as DMOJ's checkers/): the module `NAME.py` is the checker
NAME, found by its name (`find`), so adding a checker is adding a file. Modules whose name starts with
an underscore would be helpers, not checkers.

Every checker module says what it judges and defines one function, with one signature:

    APPLIES_TO = VALUE | OUTPUT
    def check(given, expected, got, settings) -> Comparison

- given: the test's input: a method's arguments by parameter name (arrays as tuples), or a program's
  input file (bytes);
- expected: the judge's answer: the test's expected value, or its answer file (bytes);
- got: the solution's answer: the value its method returned (plain data decoded from JSON in the
  judge, so nothing the solution defined, such as an __eq__ that always says yes, takes part; already
  of the return type, which the judge checks first), or what it wrote on standard output (bytes);
- settings: what the problem set for it, read once when the problem is loaded: the `Checker` (return
  type, checker names, double tolerance, custom function) for a value checker; the checker's own
  settings for an output checker (`tokens.TokenRules`, an `output_validator.OutputValidator`);
- the Comparison says ok, or gives the wrong answer's one-line message; `judge_fault` when the checker
  itself failed (the problem's fault: the test is IE, never the solution's).

Value checkers are the names problem.yaml's `checker:` takes: `exact` (the default), `unordered`,
`ignore_case` and `custom` (the problem's own checker.py). A module with `COMBINES = True` combines
with the others that do (`checker: [unordered, ignore_case]`): the first name's check runs and sees
every name, as each built-in relaxes the one comparison of exact.py. Output checkers judge a program's
standard output: `tokens` (the Kattis default output validator and its flags) and `output_validator`
(the problem's own program, Kattis protocol); the program kinds pick one from problem.yaml.
"""

from __future__ import annotations

import functools
import importlib
from types import ModuleType
from typing import Any, Callable

from ...record import record
from ..tctypes import TCType

VALUE = "value"  # a method's returned value; the checker is named by problem.yaml's `checker:`
OUTPUT = "output"  # a program's standard output
CUSTOM = "custom"


@record(frozen=True)
class Comparison:
    ok: bool
    message: str = ""
    judge_fault: bool = False  # the problem's own checker failed: an internal error, not the solution's
    score: float | None = None  # what a package's output validator wrote in score.txt (scoring problems)
    multiplier: float | None = None  # ... or in score_multiplier.txt (2025-09)


@functools.cache
def find(name: str) -> ModuleType:
    """The checker module named `name`; KeyError when there is none."""
    if not name.isidentifier() or name.startswith("_"):
        raise KeyError(name)
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as err:
        if err.name != f"{__name__}.{name}":  # the checker exists but imports what is not here
            raise
        raise KeyError(name) from None


@functools.cache
def names(applies_to: str) -> tuple[str, ...]:
    """The checkers that judge VALUE or OUTPUT, by name, sorted."""
    import pkgutil  # (a problem names its checker: only validate, and a wrong name, ask for them all)

    found = (info.name for info in pkgutil.iter_modules(__path__) if not info.name.startswith("_"))
    return tuple(sorted(name for name in found if applies(name, applies_to)))


def applies(name: str, applies_to: str) -> bool:
    """Whether `name` is one of names(applies_to), its module alone imported."""
    try:
        return find(name).APPLIES_TO == applies_to
    except KeyError:
        return False


@record(frozen=True)
class Checker:
    """A method problem's answer check, bound once at load: `checker(args, expected, got)` -> Comparison,
    `args` in call order. The returned value is type-checked first (a wrong type is WA whatever the
    checker); then the checker named first decides, with this Checker as its settings."""

    returns: TCType
    names: tuple[str, ...] = ("exact",)
    tolerance: float = 1e-9
    custom: Callable[[dict, Any, Any], Any] | None = None  # check() of the problem's checker.py
    parameters: tuple[str, ...] = ()  # the parameters' names, in call order

    def __call__(self, args: tuple, expected: Any, got: Any) -> Comparison:
        mismatch = self.returns.mismatch(got)
        if mismatch:
            return Comparison(False, f"wrong type: {mismatch}")
        return find(self.names[0]).check(dict(zip(self.parameters, args)), expected, got, self)


@record(frozen=True)
class OutputCheck:
    """A program problem's answer check, bound once at load: `check(given, answer, output)` -> Comparison."""

    name: str
    settings: Any

    def __call__(self, given: bytes, expected: bytes, got: bytes) -> Comparison:
        return find(self.name).check(given, expected, got, self.settings)
