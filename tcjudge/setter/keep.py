"""Keeping a found input as a test (`stress --add`, `challenge --add`): appended to a test file of
our own, listed in problem.yaml when that lists its files, and loaded back before anything is kept."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..errors import JudgeInputError
from ..problems.format import Problem
from ..problems.loader import load_problem
from ..problems.testgen import append_test

FLOW_TESTS = re.compile(r"^tests:\s*\[(?P<names>[^\]]*)\]\s*(#.*)?$", re.MULTILINE)


def keep_test(problem: Problem, file_name: str, prefix: str, args: dict[str, Any], expected: Any,
              note: str) -> tuple[Path, str]:
    """Append the case to tests/<file_name> under the next free name `<prefix>-N`; returns (file, name)."""
    name = next_name(problem, prefix)
    path = problem.path / "tests" / file_name
    spec_path = problem.path / "problem.yaml"
    saved = {p: p.read_bytes() if p.is_file() else None for p in (path, spec_path)}
    try:
        append_test(path, name, args, expected, note, f"Inputs kept by `judge {prefix}`: expected values from "
                                                      "the reference solution.")
        _list_in_spec(spec_path, file_name)
        load_problem(problem.path)  # the kept test must load like any other, or nothing is kept
    except BaseException:
        for saved_path, data in saved.items():
            if data is None:
                saved_path.unlink(missing_ok=True)
            else:
                saved_path.write_bytes(data)
        raise
    return path, name


def next_name(problem: Problem, prefix: str) -> str:
    """`<prefix>-N` with the smallest N that no test of the problem has."""
    taken = {test.name for test in problem.tests}
    return next(f"{prefix}-{n}" for n in range(1, len(taken) + 2) if f"{prefix}-{n}" not in taken)


def _list_in_spec(spec_path: Path, file_name: str) -> None:
    """Add the file to problem.yaml's `tests: [...]` when the problem lists its files."""
    text = spec_path.read_text(encoding="utf-8")
    if not re.search(r"^tests:", text, re.MULTILINE):
        return  # files are found by listing tests/
    match = FLOW_TESTS.search(text)
    if not match:
        raise JudgeInputError(f"add {file_name} to the tests: list by hand (only a one-line [..] list is edited)",
                              spec_path)
    names = [n.strip() for n in match.group("names").split(",") if n.strip()]
    if file_name in names:
        return
    listed = f"tests: [{', '.join(names + [file_name])}]"
    spec_path.write_text(text[:match.start()] + listed + text[match.end("names") + 1:], encoding="utf-8")
