"""TopCoder's types as they meet Python: checking test data, shaping arguments, checking returned values.

A value is described in TopCoder terms ("int", "String[]") in every message, because that is how the
problem statement names it. Values here are always plain data (parsed YAML or JSON), never objects
that a solution made.
"""

from __future__ import annotations

import math
from typing import Any

from ..protocol import UNSUPPORTED
from ..record import record

INT_RANGE = (-(2**31), 2**31 - 1)
LONG_RANGE = (-(2**63), 2**63 - 1)
SCALARS = ("int", "long", "double", "String", "boolean")


@record(frozen=True)
class TCType:
    """A TopCoder type: a scalar base and a number of array dimensions (0, 1 or 2)."""

    base: str
    dims: int = 0

    @classmethod
    def parse(cls, text: str) -> TCType:
        """Parse 'int', 'String[]' or 'int[][]'; raises ValueError for anything else."""
        stripped = text.strip() if isinstance(text, str) else ""
        base = stripped.replace("[]", "")
        dims = (len(stripped) - len(base)) // 2
        if base not in SCALARS or base + "[]" * dims != stripped or dims > 2:
            raise ValueError(f"unknown type {text!r} (expected one of {', '.join(SCALARS)}, with [] or [][])")
        return cls(base, dims)

    def __str__(self) -> str:
        return self.base + "[]" * self.dims

    @property
    def element(self) -> TCType:
        return TCType(self.base, self.dims - 1)

    def mismatch(self, value: Any) -> str | None:
        """Why `value` is not a value of this type, or None when it is."""
        if self.dims:
            if not isinstance(value, (list, tuple)):
                return f"expected {self}, got {describe(value)}"
            element = self.element
            for index, item in enumerate(value):
                problem = element.mismatch(item)
                if problem:
                    return f"element {index}: {problem}"
            return None
        return _scalar_mismatch(self.base, value)

    def to_argument(self, value: Any) -> Any:
        """The value as TopCoder hands it to a Python solution: arrays become tuples, doubles floats."""
        if self.dims:
            element = self.element
            return tuple(element.to_argument(item) for item in value)
        if self.base == "double":
            return float(value)
        return value


def _scalar_mismatch(base: str, value: Any) -> str | None:
    if base in ("int", "long"):
        if type(value) is not int:
            return f"expected {base}, got {describe(value)}"
        low, high = INT_RANGE if base == "int" else LONG_RANGE
        if not low <= value <= high:
            bits = 32 if base == "int" else 64
            return f"expected {base}, got {value}, outside the {bits}-bit range"
        return None
    if base == "double":
        if type(value) not in (int, float):
            return f"expected double, got {describe(value)}"
        return None
    if base == "String":
        return None if type(value) is str else f"expected String, got {describe(value)}"
    return None if type(value) is bool else f"expected boolean, got {describe(value)}"


def describe(value: Any) -> str:
    """A short TopCoder-flavoured description of a plain value, for messages."""
    if value is None:
        return "None"
    if isinstance(value, bool):
        return f"boolean ({value})"
    if isinstance(value, int):
        return f"int ({value})"
    if isinstance(value, float):
        return f"double ({value!r})"
    if isinstance(value, str):
        return f"String ({shorten(repr(value))})"
    if isinstance(value, (list, tuple)):
        return f"array of {len(value)}"
    if isinstance(value, dict) and set(value) == {UNSUPPORTED}:
        return f"an object of type {value[UNSUPPORTED]}"
    return type(value).__name__


def shorten(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def is_nan(value: Any) -> bool:
    return isinstance(value, float) and math.isnan(value)
