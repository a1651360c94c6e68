"""A problem's statement as `judge statement` prints it: its name, the statement file's text as it
is (statement.md of ours; a package's statement/problem.en.md or .tex, legacy problem_statement/),
then its examples: each input and answer, or, for an interactive or multi-pass package, the
dialogue of the sample's `.interaction` file, the judge's and the program's lines told apart.

An example's number is the one its statement uses, everywhere the judge shows one (here, and the
contest server's samples.zip): from 0 in our own format, as TopCoder numbers its examples (`judge
new` writes "Example 0" for the test example-0, and our statements follow it), from 1 in a package,
as problemtools' statements number their samples ("Sample Input 1"). So a statement's "Example 0"
is listed as "Example 0 (example-0)", a package's first sample as "Example 1 (sample/1)".
"""

from __future__ import annotations

from ..errors import JudgeInputError
from ..problems import interaction
from ..problems.format import Problem

STATEMENT_FILES = ("statement.md", "statement/problem.en.md", "statement/problem.en.tex", "statement/problem.md",
                   "problem_statement/problem.en.tex", "problem_statement/problem.tex", "problem_statement/problem.en.md")


def statement_text(problem: Problem) -> str:
    """The statement and its examples, as text for the terminal."""
    source = next((problem.path / name for name in STATEMENT_FILES if (problem.path / name).is_file()), None)
    parts = [f"{problem.name} ({problem.slug})", "",
             source.read_text(encoding="utf-8", errors="replace").rstrip() if source else "(no statement file)"]
    for example in shown_examples(problem):
        parts += ["", f"Example {example['number']} ({example['name']})" if example["number"] is not None
                  else f"Example ({example['name']})"]
        if "dialogue" in example:
            parts.append(example["dialogue"])
        elif "input" in example:
            parts += ["input:", example["input"], "answer:", example["answer"]]
        else:
            parts += [f"arguments: {example['arguments']}", f"returns: {example['returns']}"]
    return "\n".join(parts)


def shown_examples(problem: Problem) -> list[dict]:
    """The examples as a statement lists them after its text, each with its number (None: a sample's
    dialogue without an input, shown, never run) and name, and its dialogue (an interactive or
    multi-pass package's .interaction), or its input and answer, or its arguments and value."""
    found, shown = [], set()
    for number, example in numbered_examples(problem):
        item = {"number": number, "name": example.name}
        dialogue = _dialogue(problem, example.file)
        if dialogue is not None:
            shown.add(example.file)
            item["dialogue"] = dialogue
        elif example.input is not None:
            item |= {"input": _text(example.input.read()), "answer": _text(example.answer.read())}
        else:
            item |= {"arguments": ", ".join(map(repr, example.args)), "returns": repr(example.expected)}
        found.append(item)
    samples = problem.path / "data" / "sample"
    alone = [p for p in sorted(samples.rglob("*.interaction")) if p.with_suffix(".in").relative_to(problem.path).as_posix()
             not in shown] if samples.is_dir() else []
    for path in alone:
        found.append({"number": None, "name": path.stem,
                      "dialogue": _dialogue(problem, path.relative_to(problem.path).as_posix()) or ""})
    return found


def numbered_examples(problem: Problem) -> enumerate:
    """The examples with their numbers, as the module's docstring says."""
    return enumerate(problem.examples, 0 if problem.kind.own_format else 1)


def _dialogue(problem: Problem, file: str) -> str | None:
    path = (problem.path / file).with_suffix(".interaction")
    if not (problem.kind.interactive or problem.kind.multi_pass) or not path.is_file():
        return None
    try:
        return interaction.render(interaction.read(path, problem.kind.multi_pass))
    except JudgeInputError as err:
        return f"(not shown: {err})"


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace").rstrip("\n")
