"""Random valid inputs for a problem, as hypothesis strategies built from its declared types,
constraints and rules (for `judge.py stress`).

Types and per-parameter constraints are built into the strategies (lengths, alphabets, ranges), so
every drawn value already satisfies them; only the cross-field rules, which are arbitrary
expressions, filter whole inputs. hypothesis shrinks every strategy here towards short arrays and
small numbers, which is what makes a counterexample minimal.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..problems.format import Problem
from ..problems.tctypes import INT_RANGE, LONG_RANGE, TCType

try:
    from hypothesis import strategies as st
except ImportError:  # an optional dependency: stress says how to install it
    st = None

DEFAULT_LENGTH = (0, 50)  # TopCoder's usual bound for arrays and strings without a constraint
DEFAULT_DOUBLE_RANGE = (-1e9, 1e9)
LETTERS = "abcdefghijklmnopqrstuvwxyz"
PRINTABLE_ASCII = LETTERS + LETTERS.upper() + "".join(  # TopCoder strings; the simplest characters first
    ch for ch in map(chr, range(32, 127)) if not ch.isalpha())
INSTALL_HINT = "stress needs hypothesis: pip install 'topcoder-judge[setter]' (or pip install hypothesis)"


def require_hypothesis() -> None:
    """hypothesis, with its files in the user's cache: never a .hypothesis/ in the user's project."""
    if st is None:
        from ..errors import JudgeInputError

        raise JudgeInputError(INSTALL_HINT)
    from hypothesis.configuration import set_hypothesis_home_dir

    set_hypothesis_home_dir(str(hypothesis_home()))


def hypothesis_home() -> Path:
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "tcjudge" / "hypothesis"


def input_strategy(problem: Problem):
    """Dicts of plain values by parameter name (lists for arrays) that the problem accepts as input.

    Each input first draws a scale: every integer of that input lies within 2**scale - 1 of the
    value nearest zero in its range. Small scales give inputs of small numbers, which both catch
    bugs early and satisfy rules like "sum(a) + sum(b) <= 30" that whole-range draws almost never
    meet; the largest scale covers every range. The scale shrinks too, towards small numbers."""
    require_hypothesis()
    widest = max((_scale_needed(param.type, problem.constraints.get(param.name, {})) for param in problem.parameters),
                 default=0)

    def at_scale(scale: int):
        return st.fixed_dictionaries({
            param.name: value_strategy(param.type, problem.constraints.get(param.name, {}), scale=scale)
            for param in problem.parameters
        })

    inputs = st.integers(0, widest).flatmap(at_scale)
    if problem.rules:
        inputs = inputs.filter(lambda values: not problem.input_problems(values))
    return inputs


def value_strategy(tctype: TCType, limits: dict[str, Any], depth: int = 0, scale: int | None = None):
    """Values of one parameter: `length` bounds the outer array (or a lone string), `element_length`
    each inner array or string, `range` every number (narrowed by `scale`, see input_strategy) and
    `alphabet` every character."""
    length = tuple(limits.get("length" if depth == 0 else "element_length", DEFAULT_LENGTH))
    if tctype.dims:
        element = value_strategy(tctype.element, limits, depth + 1, scale)
        return st.lists(element, min_size=int(length[0]), max_size=int(length[1]))
    if tctype.base == "String":
        # A list of characters rather than st.text: hypothesis then deletes runs of characters while
        # shrinking, which finds shorter counterexamples (a bug that needs a length of 2 mod 3 ends
        # at "00", not at the first such length it met). Characters shrink towards the alphabet's first.
        characters = st.sampled_from(limits.get("alphabet", PRINTABLE_ASCII))
        return st.lists(characters, min_size=int(length[0]), max_size=int(length[1])).map("".join)
    if tctype.base == "boolean":
        return st.booleans()
    if tctype.base == "double":
        low, high = limits.get("range", DEFAULT_DOUBLE_RANGE)
        return st.floats(float(low), float(high), allow_nan=False, allow_infinity=False)
    low, high = _integer_range(tctype, limits)
    if scale is not None:
        centre, reach = _centre(low, high), 2**scale - 1
        low, high = max(low, centre - reach), min(high, centre + reach)
    return st.integers(low, high)


def _integer_range(tctype: TCType, limits: dict[str, Any]) -> tuple[int, int]:
    low, high = limits.get("range", INT_RANGE if tctype.base == "int" else LONG_RANGE)
    return int(low), int(high)


def _centre(low: int, high: int) -> int:
    """The value of the range nearest zero (where hypothesis shrinks integers to)."""
    return min(max(0, low), high)


def _scale_needed(tctype: TCType, limits: dict[str, Any]) -> int:
    """The smallest scale whose reach covers this parameter's whole integer range (0 if it has none)."""
    if tctype.base not in ("int", "long"):
        return 0
    low, high = _integer_range(tctype, limits)
    centre = _centre(low, high)
    return max(centre - low, high - centre).bit_length()
