"""The CSV files the judge writes (the coach's exports, `judge accounts`' accounts), each cell safe
to open in a spreadsheet: a team's name is the team's to choose, and `=HYPERLINK(...)` in it was a
formula in the coach's spreadsheet. OWASP's rule (CSV injection): a cell that starts with `=`, `+`,
`-`, `@`, a tab or a carriage return gets a single quote before it, which the spreadsheet shows as
text; a number stays a number. `unquoted` gives back a cell as it was, so that `judge accounts
--teams accounts.csv` reads the names it wrote.
"""

from __future__ import annotations

import re

FORMULA = ("=", "+", "-", "@", "\t", "\r")  # what makes a spreadsheet read a cell as a formula
NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")


def neutral(value):
    """A cell as a spreadsheet takes it for text: a string that starts with a formula's character,
    after any quotes (so that `unquoted` can tell ours from a name's own), with a quote before it."""
    if isinstance(value, str) and value.lstrip("'").startswith(FORMULA) and not NUMBER.fullmatch(value):
        return "'" + value
    return value


def unquoted(cell: str) -> str:
    """A cell that `neutral` wrote, as it was before."""
    return cell[1:] if cell.startswith("'") and cell.lstrip("'").startswith(FORMULA) else cell


def csv_text(header: list[str], rows: list[list]) -> str:
    """A CSV file's text, every cell `neutral`, one line a row ending in LF (a shell's `read` takes
    accounts.csv's lines). A cell with a comma, a quote or a line break is quoted, a carriage return
    too (Python's writer quotes it only where the line ends in one: `x<CR>=HYPERLINK(...)` in a name
    was a row whose first cell was a formula)."""
    return "".join(",".join(_field(cell) for cell in row) + "\n" for row in [header, *rows])


def _field(value) -> str:
    text = "" if value is None else str(neutral(value))
    return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\r\n') else text
