"""`tokens`: a program's output against the judge's answer, token by token, as the Kattis default output
validator does (problemtools' default_validator), with the same flags (problem.yaml's validator_flags).

By default tokens are separated by any whitespace, compared case-insensitively, and the amount and
kind of whitespace does not matter. Flags:

  case_sensitive               tokens must match in case too
  space_change_sensitive       whitespace must match byte for byte as well
  float_absolute_tolerance E   a judge token that is a number matches a number within E
  float_relative_tolerance E   ... within E times the judge's value
  float_tolerance E            both of the above

Everything works on bytes: the output is whatever the program wrote, in any encoding, and nothing in
it is interpreted beyond splitting on ASCII whitespace and parsing decimal numbers.
"""

from __future__ import annotations

import itertools
import math
import re

from . import OUTPUT, Comparison
from ...record import record

APPLIES_TO = OUTPUT

FLAG_NAMES = ("case_sensitive", "space_change_sensitive")
TOLERANCE_NAMES = ("float_absolute_tolerance", "float_relative_tolerance", "float_tolerance")
WHITESPACE = re.compile(rb"\s+")
TOKEN_OR_SPACE = re.compile(rb"\s+|\S+")
TOKEN = re.compile(rb"\S+")
DECIMAL = re.compile(rb"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\Z")  # no nan, inf or hex, as Kattis
NEWLINE = b"\n"
SHOWN = 40  # characters of a token shown in a message


@record(frozen=True)
class TokenRules:
    """The default validator's flags, parsed once per problem."""

    case_sensitive: bool = False
    space_change_sensitive: bool = False
    float_absolute: float | None = None
    float_relative: float | None = None

    @classmethod
    def parse(cls, flags: list[str] | str | None) -> TokenRules:
        """From Kattis validator flags ("float_tolerance 1e-6 case_sensitive"); ValueError names the
        first bad flag."""
        words = flags.split() if isinstance(flags, str) else [str(word) for word in flags or []]
        values: dict = {}
        position = 0
        while position < len(words):
            word = words[position]
            if word in FLAG_NAMES:
                values[word] = True
                position += 1
                continue
            if word not in TOLERANCE_NAMES:
                known = ", ".join(FLAG_NAMES + TOLERANCE_NAMES)
                raise ValueError(f"unknown output validator flag {word!r} (known: {known})")
            try:
                tolerance = float(words[position + 1])
            except (IndexError, ValueError):
                raise ValueError(f"{word} needs a number after it") from None
            if not tolerance >= 0 or math.isinf(tolerance):
                raise ValueError(f"{word} must be a finite number >= 0, got {tolerance!r}")
            if word in ("float_absolute_tolerance", "float_tolerance"):
                values["float_absolute"] = tolerance
            if word in ("float_relative_tolerance", "float_tolerance"):
                values["float_relative"] = tolerance
            position += 2
        return cls(**values)

    @property
    def uses_floats(self) -> bool:
        return self.float_absolute is not None or self.float_relative is not None

    def describe(self) -> str:
        parts = ["case-sensitive" if self.case_sensitive else "case-insensitive",
                 "exact whitespace" if self.space_change_sensitive else "any whitespace"]
        if self.float_absolute is not None:
            parts.append(f"numbers within {self.float_absolute:g} absolute")
        if self.float_relative is not None:
            parts.append(f"numbers within {self.float_relative:g} relative")
        return "tokens, " + ", ".join(parts)


def compare_output(answer: bytes, output: bytes, rules: TokenRules = TokenRules()) -> Comparison:
    """AC when `output` matches the judge's `answer` under `rules`; else a message saying where not.

    Memory stays proportional to the output cap, never to the number of tokens: the tokens are
    walked one at a time (64 MiB of two-letter tokens once made lists of 2.6 GiB), after a
    comparison in C that settles an output identical to the answer."""
    if answer == output:
        return Comparison(True)
    pattern = TOKEN_OR_SPACE if rules.space_change_sensitive else TOKEN
    pairs = itertools.zip_longest(pattern.finditer(answer), pattern.finditer(output))
    for index, (want, have) in enumerate(pairs):
        if want is None:
            return Comparison(False, f"token {index + 1}: expected end of output, got {_show(have.group())}")
        if have is None:
            return Comparison(False, f"{_where(answer, want, index)}: expected {_show(want.group())}, got end of output")
        difference = _token_difference(want.group(), have.group(), rules)
        if difference:
            return Comparison(False, f"{_where(answer, want, index)}: {difference}")
    return Comparison(True)


def _where(answer: bytes, match: re.Match, index: int) -> str:
    """'token N (answer line L)': where the index-th token (0-based) of the answer stands."""
    return f"token {index + 1} (answer line {answer.count(NEWLINE, 0, match.start()) + 1})"


def _token_difference(want: bytes, have: bytes, rules: TokenRules) -> str | None:
    if rules.uses_floats and DECIMAL.match(want):
        if not DECIMAL.match(have):
            return f"expected the number {_show(want)}, got {_show(have)}"
        expected, got = float(want), float(have)
        error = abs(got - expected)
        if rules.float_absolute is not None and error <= rules.float_absolute:
            return None
        if rules.float_relative is not None and error <= rules.float_relative * abs(expected):
            return None
        return f"expected {_show(want)}, got {_show(have)} (error {error:.3g})"
    same = want == have if rules.case_sensitive else want.lower() == have.lower()
    return None if same else f"expected {_show(want)}, got {_show(have)}"


def _show(token: bytes) -> str:
    """A token for a message: printable ASCII kept, everything else escaped, long ones cut."""
    text = repr(token[:SHOWN])[1:]  # b'...' -> '...'
    return text[:-1] + "...'" if len(token) > SHOWN else text


def check(given: bytes, expected: bytes, got: bytes, settings: TokenRules) -> Comparison:
    return compare_output(expected, got, settings)
