"""`judge.py challenge`: TopCoder's challenge phase. An input is checked against the problem's types,
constraints and rules exactly as a test would be (an invalid challenge is refused with the reason),
then the reference and the challenged solution run on it in the sandboxed engine (stress.Duel)."""

from __future__ import annotations

import json
from typing import Any

from ..errors import JudgeInputError
from ..problems.format import Problem, did_you_mean


def challenge_input(problem: Problem, text: str) -> dict[str, Any]:
    """The arguments of a challenge from JSON text ({"name": value, ...}), or why they are not valid."""
    try:
        values = json.loads(text)
    except ValueError as err:
        raise JudgeInputError(f"--args is not JSON: {err}") from None
    names = [p.name for p in problem.parameters]
    if not isinstance(values, dict):
        raise JudgeInputError(f"--args must be a JSON object naming {names}")
    for key in values:
        if key not in names:
            raise JudgeInputError(f"invalid challenge: {key!r} is not a parameter{did_you_mean(key, names)}")
    missing = [name for name in names if name not in values]
    if missing:
        raise JudgeInputError(f"invalid challenge: no value for {missing[0]!r} (the parameters are {names})")
    ordered = {name: values[name] for name in names}
    problems = problem.input_problems(ordered)
    if problems:
        raise JudgeInputError(f"invalid challenge: {'; '.join(problems)}")
    return ordered
