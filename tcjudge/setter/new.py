"""`judge.py new`: a problem folder to fill in, laid out as docs/problem-format.md describes, with a
reference solution stub that says what to do next (so `judge.py validate` leads the way)."""

from __future__ import annotations

from pathlib import Path

from ..errors import JudgeInputError
from ..problems.format import Parameter, name_problem
from ..problems.tctypes import TCType
from ..problems.testgen import flow
from .validate import slug_problem

SAMPLE = {"int": 0, "long": 0, "double": 0.0, "String": "a", "boolean": False}  # valid under the hints below


def parse_signature(text: str) -> tuple[list[Parameter], TCType]:
    """'int[] a, String s -> int' as parameters and a return type; JudgeInputError saying what is wrong."""
    params_text, arrow, returns_text = text.partition("->")
    if not arrow:
        raise JudgeInputError(f"--signature {text!r}: expected 'TYPE name, TYPE name -> TYPE'")
    params = []
    for part in filter(None, (p.strip() for p in params_text.split(","))):
        type_text, _, name = part.rpartition(" ")
        if not name.isidentifier():
            raise JudgeInputError(f"--signature: {part!r} is not 'TYPE name'")
        problem = name_problem(name, parameter=True)
        if problem:
            raise JudgeInputError(f"--signature: parameter name {problem}")
        params.append(Parameter(name, _type(type_text.strip())))
    if not params:
        raise JudgeInputError("--signature: a method takes at least one parameter")
    if len({p.name for p in params}) != len(params):
        raise JudgeInputError("--signature: parameter names must be unique")
    return params, _type(returns_text.strip())


def _type(text: str) -> TCType:
    try:
        return TCType.parse(text)
    except ValueError as err:
        raise JudgeInputError(f"--signature: {err}") from None


def _sample(tctype: TCType):
    return [_sample(tctype.element)] if tctype.dims else SAMPLE[tctype.base]


def create_problem(problems_dir: Path, solutions_dir: Path, slug: str, class_name: str, method: str,
                   signature: str) -> list[Path]:
    """Write the new problem's files; returns them. Refuses an invalid slug or an existing folder."""
    problem = slug_problem(slug)
    if problem:
        raise JudgeInputError(problem)
    for name, value in (("--class", class_name), ("--method", method)):
        problem = name_problem(value)
        if problem:
            raise JudgeInputError(f"{name}: {problem}")
    params, returns = parse_signature(signature)
    folder = problems_dir / slug
    if folder.exists():
        raise JudgeInputError("already exists", folder)
    reference = solutions_dir / slug / "accepted" / "reference.py"
    example = ", ".join(f"{p.name}: {flow(_sample(p.type))}" for p in params)
    python_args = ", ".join(f'"{p.name}": {_sample(p.type)!r}' for p in params)
    statement_args = ", ".join(f"`{p.name} = {flow(_sample(p.type))}`" for p in params)
    files = {
        folder / "problem.yaml": PROBLEM_YAML.format(
            name=class_name, cls=class_name, method=method, returns=returns,
            params="\n".join(f'  - {{name: {p.name}, type: "{p.type}"}}' for p in params),
            constraints="\n".join(f"  {p.name}: {_constraint_hint(p.type)}" for p in params)),
        folder / "statement.md": STATEMENT.format(name=class_name, args=statement_args,
                                                  expected=flow(_sample(returns))),
        folder / "tests" / "examples.yaml": EXAMPLES.format(args=example, expected=flow(_sample(returns))),
        folder / "generator.py": GENERATOR.format(slug=slug, args=python_args),
        folder / "verify.py": VERIFY.format(params=", ".join(p.name for p in params),
                                            sample=python_args),
        reference: REFERENCE.format(cls=class_name, method=method, params=", ".join(p.name for p in params)),
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return list(files)


def _constraint_hint(tctype: TCType) -> str:
    if tctype.base == "String":
        return "{length: [1, 50]}" if not tctype.dims else "{length: [1, 50], element_length: [1, 50]}"
    if tctype.base == "boolean":
        return "{length: [1, 50]}" if tctype.dims else "{}"
    return "{range: [0, 1000]}" if not tctype.dims else "{length: [1, 50], range: [0, 1000]}"


PROBLEM_YAML = """\
name: {name}
source: where the problem comes from (contest, round, level)
class: {cls}
method: {method}
parameters:
{params}
returns: "{returns}"
time_limit: 2
memory_limit: 256
checker: exact
constraints:            # from the statement's constraints; every test is checked against them
{constraints}
rules: []               # cross-field rules: - {{check: "python expression", message: "..."}}
"""

STATEMENT = """\
# {name}

Tell the story and the task in your own words.

## Definition

Write the signature and what the method returns.

## Constraints

- One line per constraint, matching `constraints:` in problem.yaml.

## Examples

**Example 0.** {args}. Returns `{expected}`.
Replace this with the original examples, each also in tests/examples.yaml.
"""

EXAMPLES = """\
# The statement's examples, in the statement's order (replace this placeholder).
- name: example-0
  args: {{{args}}}
  expected: {expected}
"""

GENERATOR = '''\
"""Writes {slug}'s own test files (edge cases, maximum sizes, seeded random cases) with expected
values from the reference solution. Run: judge generate {slug} (the judge's own Python runs it;
`judge validate --generate {slug}` runs it, then validates)."""
import random
import sys
from pathlib import Path

try:
    from tcjudge.testgen import reference, write_tests
except ModuleNotFoundError:
    sys.exit("generator.py needs the judge's package, which this Python does not have: run it with "
             "`judge generate {slug}`, which uses the judge's own Python")

HERE = Path(__file__).resolve().parent
SEED = 1

EDGE_CASES = [  # (name, args in parameter order, note), e.g.
    # ("edge-smallest", {{{args}}}, "the smallest input"),
]


def random_cases(rng):
    """Seeded random cases: e.g. [(f"random-{{n:03d}}", {{...args drawn with rng...}}) for n in range(100)]."""
    return []


solve = reference(HERE)
write_tests(HERE / "tests" / "edge.yaml", EDGE_CASES, solve, "Generated by generator.py: corner cases.")
write_tests(HERE / "tests" / "random.yaml", random_cases(random.Random(SEED)), solve,
            f"Generated by generator.py: random cases, seed {{SEED}}.")
'''

VERIFY = '''\
"""An independent second implementation, written apart from the reference (brute force where inputs
are small): every expected value is proved by both."""


def solve({params}):
    raise NotImplementedError("write a second, independent solution here")


def random_input(rng):
    """A small random valid input (a dict of arguments) from random.Random."""
    return {{{sample}}}
'''

REFERENCE = '''\
# The reference solution: the efficient one, whose answers become the expected values.
class {cls}:
    def {method}(self, {params}):
        raise NotImplementedError("write the reference solution here")
'''
