"""A sample's `.interaction` file (Kattis / ICPC packages): the dialogue a statement shows for an
interactive or multi-pass problem. Each line starts with `<` (the judge's side: what the program
reads) or `>` (the program's side: what it writes); in a multi-pass problem a line `---` separates
the passes (a non-interactive pass is its input as `<` lines, then its output as `>` lines).
"""

from __future__ import annotations

from pathlib import Path

from ..errors import JudgeInputError
from ..record import record

JUDGE, PROGRAM, SEPARATOR = "<", ">", "---"


@record(frozen=True)
class Pass:
    lines: tuple[tuple[str, str], ...]  # (side, text) in the dialogue's order

    def said(self, side: str) -> bytes:
        """Everything one side wrote in this pass, a line each."""
        return "".join(text + "\n" for who, text in self.lines if who == side).encode()


def read(path: Path, multi_pass: bool) -> list[Pass]:
    """The passes of an .interaction file; JudgeInputError (file and line) for a line that is not a
    side's line, or a separator in a problem that has one pass."""
    passes, current = [], []
    text = path.read_text(encoding="utf-8", errors="replace")
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip() == SEPARATOR:
            if not multi_pass:
                raise JudgeInputError("'---' separates passes, but this problem is not multi-pass", path, number)
            passes.append(Pass(tuple(current)))
            current = []
        elif line[:1] in (JUDGE, PROGRAM):
            current.append((line[0], line[1:].strip()))
        else:
            raise JudgeInputError(f"a line of an interaction starts with {JUDGE} or {PROGRAM}"
                                  + (f" (or is {SEPARATOR})" if multi_pass else ""), path, number)
    passes.append(Pass(tuple(current)))
    return passes


def render(passes: list[Pass]) -> str:
    """The dialogue as a statement shows it: who says what, passes numbered when there are several."""
    out = []
    for number, one in enumerate(passes, 1):
        if len(passes) > 1:
            out.append(f"-- pass {number} --")
        out += [f"{'judge  ' if who == JUDGE else 'program'} {text}" for who, text in one.lines]
    return "\n".join(out)
