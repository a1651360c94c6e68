"""Making text a solution controls safe to show: in a terminal, Markdown, HTML or JSON.

A solution chooses its exception messages, the names of the types it returns (`__module__`
included), what it prints and the file names it is stored under. Shown raw, that text can move the
cursor and repaint a table (ANSI escapes), reorder what the reader sees (bidi overrides), or crash
the judge's own printing and JSON writing (a lone surrogate cannot be encoded as UTF-8). `safe_text`
is applied where such text enters the judge's results (TestResult, GradeResult, paths in tables),
so everything downstream (tables, reports, JSON) is safe by construction.
"""

from __future__ import annotations

import math
import re

MESSAGE_LIMIT = 2000  # characters of one message kept; far beyond any table cell, bounded for JSON

_BIDI = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
_LINE_BREAKS = (0x2028, 0x2029)  # line and paragraph separators: a new line in many renderers
_CONTROLS = (*range(0x00, 0x20), *range(0x7F, 0xA0))  # C0, DEL, C1


def _escape(code: int) -> str:
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


# One translate() pass: controls and bidi/line formatting characters become visible escapes
# (\x1b, \u202e); surrogates (never valid on their own in text) become U+FFFD.
_TABLE = {code: _escape(code) for code in (*_CONTROLS, *_BIDI, *_LINE_BREAKS)}
_TABLE.update({code: "\ufffd" for code in range(0xD800, 0xE000)})
_CUT_ESCAPE = re.compile(r"\\(x[0-9a-f]?|u[0-9a-f]{0,3})$")  # an escape the length cap would cut in two


def safe_text(text: object, limit: int = MESSAGE_LIMIT) -> str:
    """`text` with every control, bidi and line-separator character escaped visibly, lone surrogates
    replaced, and at most `limit` characters in all (a cut one ends with a marker saying so)."""
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    if not text:  # (most of a passing test's fields)
        return text
    escaped = text[:limit].translate(_TABLE)
    if len(escaped) <= limit and len(text) <= limit:
        return escaped
    marker = f" [... cut: {len(text)} characters in all]"
    return _CUT_ESCAPE.sub("", escaped[: max(limit - len(marker), 0)]) + marker


def whole_line(text: str) -> str:
    """`text` made safe (safe_text) and never cut: an input error's one line names its file whole."""
    return safe_text(text, limit=len(text) * 4 + 100)


def safe_lines(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """`safe_text` for text whose lines matter (printed output, a program's answer): at most `limit`
    characters, each line made safe and the line breaks kept."""
    if not text:
        return text
    return "\n".join(safe_text(line) for line in text[:limit].split("\n"))


def is_safe(text: str) -> bool:
    """True when `safe_text` would leave `text` unchanged (used by tests and assertions)."""
    return len(text) <= MESSAGE_LIMIT and text.translate(_TABLE) == text


_MARKDOWN = str.maketrans({"|": "\\|", "`": "\\`", "<": "&lt;", ">": "&gt;", "&": "&amp;"})


def markdown_cell(text: str) -> str:
    """`safe_text` for one Markdown table cell: a pipe cannot end the cell, nor a tag reach a renderer."""
    return safe_text(text).translate(_MARKDOWN)


def count(number: int, noun: str) -> str:
    """'1 problem', '2 problems': one place for plurals of the judge's own nouns (regular ones only)."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def format_score(score: float | None) -> str:
    """A score as people read it: 50, 33.33, or "-" (none)."""
    if score is None:
        return "-"
    if math.isinf(score):
        return "inf" if score > 0 else "-inf"
    return f"{score:.0f}" if score == round(score) else f"{score:.2f}".rstrip("0")


def score_of(score: float | None, maximum: float | None) -> str:
    """"30 of 100", or "30" where there is no maximum."""
    return format_score(score) + (f" of {format_score(maximum)}" if maximum is not None else "")
