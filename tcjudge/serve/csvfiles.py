"""The CSV files the judge writes (the coach's exports, `judge accounts`' accounts), each cell safe
to open in a spreadsheet: a team's name is the team's to choose, and `=HYPERLINK(...)` in it was a
formula in the coach's spreadsheet. OWASP's rule (CSV injection): a cell that starts with `=`, `+`,
`-`, `@`, a tab or a carriage return gets a single quote before it, which the spreadsheet shows as
text; a number stays a number. A spreadsheet may split on `;` or a tab rather than a comma (Excel in
European locales, LibreOffice asks), and then a cell starts after each of those in our text too: so
does the rule (`Lyon;=1+2;x` was a formula read with `;`), and a cell holding one is quoted. `unquoted`
gives back a cell as it was, so that `judge accounts --teams accounts.csv` reads the names it wrote.
"""

from __future__ import annotations

import re

FORMULA = ("=", "+", "-", "@", "\t", "\r")  # what makes a spreadsheet read a cell as a formula
NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")
SEPARATORS = re.compile(r"([,;\t])")  # what a spreadsheet may split a line on (kept by re.split)
QUOTED = ',;\t"\r\n'  # a cell holding one is written in quotes


def neutral(value):
    """A cell as a spreadsheet takes it for text, whichever separator it splits on: each part of a
    string (split on SEPARATORS) that starts with a formula's character, after any quotes (so that
    `unquoted` can tell ours from a name's own), gets a quote before it."""
    if not isinstance(value, str) or NUMBER.fullmatch(value):
        return value
    parts = SEPARATORS.split(value)
    text = "".join("'" + part if at % 2 == 0 and _formula(part) else part for at, part in enumerate(parts))
    return "'" + text if _leading_tab(text) else text  # (a tab first is a part's separator, not its start)


def unquoted(cell: str) -> str:
    """A cell that `neutral` wrote, as it was before."""
    if NUMBER.fullmatch(cell):
        return cell
    cell = cell[1:] if cell.startswith("'") and _leading_tab(cell) else cell
    parts = SEPARATORS.split(cell)
    return "".join(part[1:] if at % 2 == 0 and part.startswith("'") and _formula(part) else part
                   for at, part in enumerate(parts))


def _formula(part: str) -> bool:
    return part.lstrip("'\"").startswith(FORMULA)


def _leading_tab(text: str) -> bool:
    return text.lstrip("'\"").startswith("\t")


def csv_text(header: list[str], rows: list[list]) -> str:
    """A CSV file's text, every cell `neutral`, one line a row ending in LF (a shell's `read` takes
    accounts.csv's lines). A cell with a separator (`,`, `;`, tab), a quote or a line break is quoted,
    a carriage return too (Python's writer quotes it only where the line ends in one:
    `x<CR>=HYPERLINK(...)` in a name was a row whose first cell was a formula)."""
    return "".join(",".join(_field(cell) for cell in row) + "\n" for row in [header, *rows])


def _field(value) -> str:
    text = "" if value is None else str(neutral(value))
    return '"' + text.replace('"', '""') + '"' if any(c in text for c in QUOTED) else text
