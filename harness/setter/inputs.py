"""Random valid inputs for a problem, as hypothesis strategies built from its declared types,
constraints and rules (for `judge.py stress`).

Types and per-parameter constraints are built into the strategies (lengths, alphabets, ranges), so
every drawn value already satisfies them; only the cross-field rules, which are arbitrary
expressions, filter whole inputs. hypothesis shrinks every strategy here towards short arrays and
small numbers, which is what makes a counterexample minimal.
"""

from __future__ import annotations

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
    if st is None:
        from ..errors import JudgeInputError

        raise JudgeInputError(INSTALL_HINT)


def input_strategy(problem: Problem):
    """Dicts of plain values by parameter name (lists for arrays) that the problem accepts as input."""
    require_hypothesis()
    fields = {
        param.name: value_strategy(param.type, problem.constraints.get(param.name, {}))
        for param in problem.parameters
    }
    inputs = st.fixed_dictionaries(fields)
    if problem.rules:
        inputs = inputs.filter(lambda values: not problem.input_problems(values))
    return inputs


def value_strategy(tctype: TCType, limits: dict[str, Any], depth: int = 0):
    """Values of one parameter: `length` bounds the outer array (or a lone string), `element_length`
    each inner array or string, `range` every number and `alphabet` every character."""
    length = tuple(limits.get("length" if depth == 0 else "element_length", DEFAULT_LENGTH))
    if tctype.dims:
        element = value_strategy(tctype.element, limits, depth + 1)
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
    low, high = limits.get("range", INT_RANGE if tctype.base == "int" else LONG_RANGE)
    return st.integers(int(low), int(high))
