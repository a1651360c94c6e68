"""What the problems' generator.py scripts and the proof of the test data share: calling a trusted
solution in-process, and writing test files in one layout, so that every generated file reads alike
and is rebuilt bit for bit.

Only for code of our own (reference solutions, verify.py, stored solutions in the proof test):
untrusted solutions are only ever run by the judge.
"""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Iterable

import yaml

FLOW_WIDTH = 100  # args that fit on a line this long are written on one line
PROGRAM_TIMEOUT = 600  # seconds for a trusted program on one input file


def load_solution(path: Path, class_name: str, method: str) -> Callable[..., Any]:
    """The method of a solution file, called in this process with a fresh instance per call."""
    spec = importlib.util.spec_from_file_location(f"_trusted_{path.parent.name}_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cls = getattr(module, class_name)
    return lambda *args: getattr(cls(), method)(*args)


def reference(problem_dir: Path) -> Callable[..., Any]:
    """The problem's reference solution, solutions/<slug>/accepted/reference.py."""
    spec = yaml.safe_load((problem_dir / "problem.yaml").read_text(encoding="utf-8"))
    path = problem_dir.resolve().parents[1] / "solutions" / problem_dir.name / "accepted" / "reference.py"
    return load_solution(path, spec["class"], spec["method"])


def as_argument(value: Any) -> Any:
    """A value as TopCoder hands it to Python: lists become tuples, at every depth."""
    return tuple(as_argument(item) for item in value) if isinstance(value, (list, tuple)) else value


def write_tests(path: Path, cases: Iterable[tuple], solve: Callable[..., Any], header: str = "") -> None:
    """Write a test file. Each case is (name, args) or (name, args, note), args a dict in parameter
    order; the expected value is what `solve` returns for the args as the judge passes them."""
    lines = [f"# {line}" for line in header.splitlines()]
    for name, args, *note in cases:
        expected = solve(*(as_argument(value) for value in args.values()))
        lines += test_lines(name, args, expected, *note)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_lines(name: str, args: dict, expected: Any, note: str = "") -> list[str]:
    """One test case in the layout of every generated file (args a dict in parameter order)."""
    lines = [f"- name: {name}", *_args_lines(args), f"  expected: {flow(expected)}"]
    if note:
        lines.append(f"  note: {json.dumps(note)}")
    return lines


def append_test(path: Path, name: str, args: dict, expected: Any, note: str = "", header: str = "") -> None:
    """Add one test case at the end of a test file (created with `header` when new)."""
    existing = path.read_text(encoding="utf-8") if path.is_file() else "".join(f"# {h}\n" for h in header.splitlines())
    if existing and not existing.endswith("\n"):
        existing += "\n"
    path.write_text(existing + "\n".join(test_lines(name, args, expected, note)) + "\n", encoding="utf-8")


def _args_lines(args: dict) -> list[str]:
    line = "  args: {" + ", ".join(f"{name}: {flow(value)}" for name, value in args.items()) + "}"
    if len(line) <= FLOW_WIDTH:
        return [line]
    lines = ["  args:"]
    for name, value in args.items():
        if isinstance(value, (list, tuple)) and value and all(isinstance(row, (list, tuple)) for row in value):
            lines.append(f"    {name}:")  # a 2-D array: one row per line
            lines += [f"      - {flow(row)}" for row in value]
        else:
            lines.append(f"    {name}: {flow(value)}")
    return lines


def flow(value: Any) -> str:
    """JSON text, which YAML reads back as the same value (strings quoted: "NO" stays a string; a
    double always has a dot and a signed exponent, since YAML 1.1 reads 1e-09 as a string)."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow(item) for item in value) + "]"
    if isinstance(value, float) and math.isfinite(value):
        mantissa, _, exponent = repr(value).partition("e")
        mantissa += "" if "." in mantissa else ".0"
        return mantissa + (f"e{'' if exponent[0] in '+-' else '+'}{exponent}" if exponent else "")
    return json.dumps(value)


def run_program(path: Path, data: bytes) -> bytes:
    """What a trusted stdin program (a reference solution, a stored solution in the proof test)
    writes for `data` on its standard input, run as `python3 path < input`."""
    return subprocess.run([sys.executable, str(path)], input=data, capture_output=True, check=True,
                          timeout=PROGRAM_TIMEOUT).stdout


def write_program_tests(tests_dir: Path, cases: Iterable[tuple[str, bytes]], program: Path) -> None:
    """Write NAME.in and NAME.ans (the program's output for the input) for each (name, input)."""
    for name, data in cases:
        (tests_dir / f"{name}.in").write_bytes(data)
        (tests_dir / f"{name}.ans").write_bytes(run_program(program, data))
