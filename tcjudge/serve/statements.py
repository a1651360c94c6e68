"""A problem's statement as HTML: our Markdown statements and a package's Markdown, with `$...$` and
`$$...$$` math; a package's LaTeX statement (problem.en.tex) in the shape the Kattis format writes it
(`\\problemname`, `\\section*`, paragraphs, math). Math becomes MathML on the server (latex2mathml),
which browsers draw themselves: no script, no CDN. After it, what the statement file does not hold: a
package's samples (problemtools appends them to its statements too), a method problem's class in each
contest language. And its samples as a zip to download."""

from __future__ import annotations

import io
import re
import zipfile

from markupsafe import escape

from ..problems.tctypes import shorten
from ..reports.statement import STATEMENT_FILES, numbered_examples, shown_examples
from .contest import LANGUAGE_NAMES

_MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$", re.DOTALL)
_SECTION = re.compile(r"\\(?:sub)?section\*?\{([^}]*)\}")
_NAME = re.compile(r"\\problemname\{([^}]*)\}")
_ENVIRONMENT = re.compile(r"\\(?:begin|end)\{[^}]*\}(?:\{[^}]*\})*")


def math(latex: str, block: bool = False) -> str:
    """MathML for a formula; the formula's text when it cannot be converted."""
    from latex2mathml.converter import convert

    try:
        return convert(latex.strip(), display="block" if block else "inline")
    except Exception:  # noqa: BLE001 - a formula the converter cannot read is shown as written
        return f'<code class="math">{escape(latex)}</code>'


def statement_html(problem) -> str:
    """The statement's HTML: Markdown rendered without raw HTML (a statement's `<script>` is text)."""
    source = next((problem.path / name for name in STATEMENT_FILES if (problem.path / name).is_file()), None)
    if source is None:
        return "<p>(no statement file)</p>"
    text = source.read_text(encoding="utf-8", errors="replace")
    if source.suffix == ".tex":
        return latex_html(text)
    first, _, rest = text.lstrip().partition("\n")
    if first.strip() == f"# {problem.name}":  # (the page's own heading says it)
        text = rest
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    parser = MarkdownIt("commonmark", {"html": False}).enable("table")
    parser.use(dollarmath_plugin, renderer=lambda content, options: math(content, options.get("display_mode", False)))
    return parser.render(text)


def latex_html(text: str) -> str:
    """A Kattis LaTeX statement's paragraphs, sections and math (other commands are dropped, their
    arguments kept as text)."""
    text = re.sub(r"(?<!\\)%.*", "", text)
    parts = []
    for paragraph in re.split(r"\n\s*\n", text):
        paragraph = _ENVIRONMENT.sub("", paragraph).strip()
        heading = _SECTION.fullmatch(paragraph.split("\n", 1)[0].strip())
        if heading:
            parts.append(f"<h2>{escape(heading.group(1))}</h2>")
            paragraph = paragraph.split("\n", 1)[1].strip() if "\n" in paragraph else ""
        name = _NAME.search(paragraph)
        if name:
            paragraph = _NAME.sub("", paragraph).strip()
        if paragraph:
            parts.append(f"<p>{_inline(paragraph)}</p>")
    return "\n".join(parts)


def _inline(text: str) -> str:
    out, at = [], 0
    for found in _MATH.finditer(text):
        out.append(_plain(text[at:found.start()]))
        out.append(math(found.group(1), True) if found.group(1) is not None else math(found.group(2)))
        at = found.end()
    out.append(_plain(text[at:]))
    return "".join(out)


def _plain(text: str) -> str:
    text = re.sub(r"\\(?:emph|textbf|textit|texttt)\{([^}]*)\}", r"\1", text)
    text = re.sub(r"\\[a-zA-Z]+\*?", "", text).replace("~", " ").replace("``", "\u201c").replace("''", "\u201d")
    return str(escape(text.replace("{", "").replace("}", "")))


SAMPLE_SHOWN = 20000  # characters of a sample's input or answer on its page (the zip has them whole)


def samples(problem) -> list[dict]:
    """A package's samples as its page shows them after the statement, numbered as the statement
    numbers them: each input and answer, or its dialogue. Ours: none (our statements hold their
    examples)."""
    if problem.kind.own_format:
        return []
    return [example | {key: shorten(example[key], SAMPLE_SHOWN) for key in ("input", "answer") if key in example}
            for example in shown_examples(problem)]


def signatures(problem, languages: list[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """A method problem's class as a solution declares it in each contest language that takes one
    (Python, C++, Java: the statement file says Python's alone), and the contest's other languages,
    which take standard-input programs only."""
    if problem.kind.program:
        return [], []
    from ..languages.cpp import declaration

    cls = problem.class_name
    arguments = "".join(f", {parameter.name}" for parameter in problem.parameters)
    code = {"python3": f"class {cls}:\n    def {problem.method}(self{arguments}):\n        ...",
            "cpp": f"class {cls} {{\npublic:\n    {declaration(problem)} {{ ... }}\n}};",
            "java": f"public class {cls} {{\n    public {problem.signature} {{ ... }}\n}}"}
    return ([(LANGUAGE_NAMES[lid], code[lid]) for lid in languages if lid in code],
            [LANGUAGE_NAMES[lid] for lid in languages if lid not in code])


def samples_zip(problem) -> bytes:
    """The statement's examples: a program's input and answer files (N.in, N.ans); a method's
    arguments and expected return value (N.txt); N as the statement numbers them."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for number, example in numbered_examples(problem):
            if example.input is not None:
                archive.writestr(f"{number}.in", example.input.read())
                archive.writestr(f"{number}.ans", example.answer.read())
            else:
                archive.writestr(f"{number}.txt", f"arguments: {', '.join(map(repr, example.args))}\n"
                                                  f"returns: {example.expected!r}\n")
    return buffer.getvalue()
