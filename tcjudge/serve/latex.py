"""A Kattis package's LaTeX statement (problem_statement/problem.en.tex) as HTML, as its contestants read it.

Not a TeX engine: what the Kattis format's statements use. Their own macros (`\\newcommand`, `\\def`, with
arguments) are expanded wherever they are used, math included; `\\section*`, the format's Input, Output
and Interaction environments become headings; itemize and enumerate, lists; `\\illustration` and a
figure, a figure with its caption (its image is not shown: packages give PDFs); emphasis, code, links,
TeX's quotes, dashes and escaped characters become what they print; spacing, labels and pictures
(tikz) are dropped; any other command is dropped with its arguments' text kept. Math goes to the `math`
function given (MathML). Breaker 54b F1-F2: macros vanished and their definitions showed as a paragraph,
\\illustration's width and file name were printed, `\\&` kept its backslash, and Input and Output were
run-on text in one paragraph.
"""

from __future__ import annotations

import itertools
import re
from typing import Callable

from markupsafe import escape

HEADINGS = {"Input": "Input", "Output": "Output", "Interaction": "Interaction", "Scoring": "Scoring"}
LISTS = {"itemize": "ul", "enumerate": "ol", "description": "ul"}
DROPPED_ENVIRONMENTS = ("tikzpicture", "comment")
DROPPED = {"vspace": 1, "hspace": 1, "label": 1, "includegraphics": 1, "ref": 1, "medskip": 0, "bigskip": 0,
           "smallskip": 0, "newpage": 0, "centering": 0, "noindent": 0, "hfill": 0, "par": 0, "clearpage": 0,
           "problemname": 1, "caption": 1, "protect": 0}
SYMBOLS = {"&": "&", "%": "%", "$": "$", "#": "#", "_": "_", "{": "{", "}": "}", " ": " ", ",": "\u2009",
           "ldots": "\u2026", "dots": "\u2026", "textasciitilde": "~", "textbackslash": "\\", "LaTeX": "LaTeX",
           "TeX": "TeX", "texttrademark": "\u2122", "ss": "\u00df", "o": "\u00f8", "times": "\u00d7", "quad": " "}
TAGS = {"emph": "em", "textit": "em", "textbf": "strong", "texttt": "code", "textsuperscript": "sup",
        "textsubscript": "sub", "underline": "u"}
_COMMAND = re.compile(r"\\([A-Za-z]+\*?|.)")
_MACRO_DEFINITION = re.compile(r"\\(?:re)?newcommand\*?\s*|\\def\s*")
_BLOCK = re.compile(r"\\begin\{(\w+\*?)\}|\\end\{(\w+\*?)\}|\\item\b\s*(?:\[[^\]]*\])?|\\(?:sub)*section\*?\s*"
                    r"|\\illustration\b|\n[ \t]*\n")
_MATH = re.compile(r"\$\$(.+?)\$\$|\\\[(.+?)\\\]|\$(.+?)\$|\\\((.+?)\\\)", re.DOTALL)


def group(text: str, at: int) -> tuple[str, int]:
    """The balanced {...} group at `at` (spaces before it skipped): its content and where it ends; a lone
    token when there is no brace ('', at when nothing is there)."""
    while at < len(text) and text[at] in " \t\n":
        at += 1
    if at >= len(text):
        return "", at
    if text[at] != "{":
        command = _COMMAND.match(text, at)
        end = command.end() if command else at + 1
        return text[at:end], end
    depth, start = 0, at
    while at < len(text):
        if text[at] == "\\":
            at += 2
            continue
        depth += {"{": 1, "}": -1}.get(text[at], 0)
        at += 1
        if depth == 0:
            return text[start + 1:at - 1], at
    return text[start + 1:], at


def _optional(text: str, at: int) -> tuple[str | None, int]:
    stripped = at
    while stripped < len(text) and text[stripped] in " \t":
        stripped += 1
    if stripped < len(text) and text[stripped] == "[":
        end = text.find("]", stripped)
        if end > 0:
            return text[stripped + 1:end], end + 1
    return None, at


def expand_macros(text: str) -> str:
    """The statement's own macros, defined by \\newcommand or \\def, taken out and expanded where used."""
    macros: dict[str, tuple[int, str]] = {}
    out, at = [], 0
    for found in _MACRO_DEFINITION.finditer(text):
        if found.start() < at:
            continue
        name, end = group(text, found.end())
        count, end = _optional(text, end)
        body, end = group(text, end)
        if name.startswith("\\") and name[1:].isalpha():
            macros[name[1:]] = (int(count) if count and count.isdigit() else 0, body)
            out.append(text[at:found.start()])
            at = end
    text = "".join(out) + text[at:]
    for _ in range(10):  # (a macro may use another; a macro that uses itself stops here)
        pieces, at = [], 0
        for found in re.finditer(r"\\([A-Za-z]+)(?![A-Za-z])", text):
            if found.start() < at or found.group(1) not in macros:
                continue
            count, body = macros[found.group(1)]
            end = found.end()
            for number in range(1, count + 1):
                argument, end = group(text, end)
                body = body.replace(f"#{number}", argument)
            if count == 0 and text.startswith("{}", end):
                end += 2
            pieces += [text[at:found.start()], body]
            at = end
        if not pieces:
            break
        text = "".join(pieces) + text[at:]
    return text


def latex_html(text: str, math: Callable[[str, bool], str]) -> str:
    """The statement's HTML (see the module)."""
    text = re.sub(r"(?<!\\)%.*", "", text)
    text = expand_macros(text)
    for environment in DROPPED_ENVIRONMENTS:
        text = re.sub(rf"\\begin\{{{environment}\}}.*?\\end\{{{environment}\}}", "", text, flags=re.DOTALL)
    text = _numbered_references(text)
    figures = itertools.count(1)  # (numbered as _numbered_references numbers them)
    html, paragraph, lists = [], [], []  # lists: each open list's tag and whether an item of it is open

    def flush() -> None:
        content = _inline("".join(paragraph), math).strip()
        paragraph.clear()
        if content:
            html.append(content if lists else f"<p>{content}</p>")

    at = 0
    for found in _BLOCK.finditer(text):
        if found.start() < at:
            continue
        paragraph.append(text[at:found.start()])
        flush()
        at = found.end()
        token, begun, ended = found.group(0), found.group(1), found.group(2)
        if begun in HEADINGS:
            html.append(f"<h2>{HEADINGS[begun]}</h2>")
        elif begun in LISTS:
            lists.append([LISTS[begun], False])
            html.append(f"<{LISTS[begun]}>")
        elif ended in LISTS and lists:
            tag, item_open = lists.pop()
            html.append(("</li>" if item_open else "") + f"</{tag}>")
        elif begun == "figure":
            close = text.find("\\end{figure}", at)
            close = close if close >= 0 else len(text)
            caption = re.search(r"\\caption\b", text[at:close])
            html.append(_figure(group(text[at:close], caption.end())[0] if caption else "", math, next(figures)))
            at = close + len("\\end{figure}")
        elif token.startswith("\\item"):
            if lists:
                html.append("</li><li>" if lists[-1][1] else "<li>")
                lists[-1][1] = True
        elif token.startswith("\\illustration"):
            _, end = group(text, at)
            _, end = group(text, end)
            caption, at = group(text, end)
            html.append(_figure(caption, math, next(figures)))
        elif token.startswith("\\") and "section" in token:
            title, at = group(text, at)
            level = 2 + token.count("sub")
            html.append(f"<h{level}>{_inline(title, math)}</h{level}>")
    paragraph.append(text[at:])
    flush()
    while lists:
        tag, item_open = lists.pop()
        html.append(("</li>" if item_open else "") + f"</{tag}>")
    return "\n".join(html)


def _numbered_references(text: str) -> str:
    """Each \\ref{label} of a figure's \\label (figures and \\illustrations numbered in order, as LaTeX
    numbers them) written as its number; any other, as LaTeX's "??" would be, left out (breaker 55b F4:
    "as shown in Figure ." for `Figure~\\ref{fig:bricks}`)."""
    numbers, count = {}, 0
    for found in re.finditer(r"\\begin\{figure\}(.*?)\\end\{figure\}|\\illustration\b", text, flags=re.DOTALL):
        count += 1
        for label in re.findall(r"\\label\{([^}]*)\}", found.group(1) or ""):
            numbers[label] = str(count)
    return re.sub(r"\\(?:auto|c|C)?ref\{([^}]*)\}", lambda found: numbers.get(found.group(1), ""), text)


def _figure(caption: str, math, number: int) -> str:
    shown = _inline(caption, math).strip()
    return (f'<figure class="illustration"><figcaption>Figure {number}: {shown or "(an illustration)"}</figcaption>'
            f'</figure>')


def _inline(text: str, math) -> str:
    out, at = [], 0
    for found in _MATH.finditer(text):
        out.append(_text(text[at:found.start()]))
        display = found.group(1) is not None or found.group(2) is not None
        out.append(math(next(part for part in found.groups() if part is not None), display))
        at = found.end()
    out.append(_text(text[at:]))
    return "".join(out)


def _text(text: str) -> str:
    """Text with commands: what each prints (see the module), everything else escaped."""
    out, at = [], 0
    while at < len(text):
        found = _COMMAND.search(text, at)
        end = found.start() if found else len(text)
        out.append(_characters(text[at:end]))
        if not found:
            break
        name, at = found.group(1), found.end()
        bare = name.rstrip("*")
        if name == "\\":
            out.append("<br>")
        elif name in SYMBOLS:
            out.append(str(escape(SYMBOLS[name])))
        elif bare in TAGS:
            argument, at = group(text, at)
            out.append(f"<{TAGS[bare]}>{_text(argument)}</{TAGS[bare]}>")
        elif bare == "verb" and at < len(text):
            close = text.find(text[at], at + 1)
            close = close if close > at else len(text)
            out.append(f"<code>{escape(text[at + 1:close])}</code>")
            at = close + 1
        elif bare in ("href", "url"):
            target, at = group(text, at)
            shown = target
            if bare == "href":
                shown, at = group(text, at)
            out.append(f'<a href="{escape(target.replace(chr(92), ""))}">{_text(shown)}</a>')
        elif bare == "footnote":
            argument, at = group(text, at)
            out.append(f" ({_text(argument)})")
        elif bare in DROPPED:
            _, at = _optional(text, at)
            for _ in range(DROPPED[bare]):
                _, at = group(text, at)
        elif bare == "scalerel":
            _, at = group(text, at)  # (an image scaled to a letter: the letter is kept)
    return "".join(out)


def _characters(text: str) -> str:
    """Plain text as TeX prints it: its quotes, dashes, ~ and groups."""
    text = text.replace("---", "\u2014").replace("--", "\u2013").replace("``", "\u201c").replace("''", "\u201d")
    text = text.replace("`", "\u2018").replace("'", "\u2019").replace("~", "\u00a0")
    return str(escape(re.sub(r"\s+", " ", text.replace("{", "").replace("}", ""))))
