"""A problem's statement as HTML: our Markdown statements and a package's Markdown, with `$...$` and
`$$...$$` math; a package's LaTeX statement (problem.en.tex: serve/latex.py). Math becomes MathML on
the server (latex2mathml), which browsers draw themselves: no script, no CDN. After it, what the statement file does not hold: a
package's samples (problemtools appends them to its statements too), a method problem's class in each
contest language. And its samples as a zip to download."""

from __future__ import annotations

import io
import zipfile

from markupsafe import escape

from ..problems.tctypes import shorten
from ..reports.statement import STATEMENT_FILES, numbered_examples, shown_examples
from .contest import LANGUAGE_NAMES


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
        from .latex import latex_html

        return latex_html(text, math)
    first, _, rest = text.lstrip().partition("\n")
    if first.strip() == f"# {problem.name}":  # (the page's own heading says it)
        text = rest
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    parser = MarkdownIt("commonmark", {"html": False}).enable("table")
    parser.use(dollarmath_plugin, renderer=lambda content, options: math(content, options.get("display_mode", False)))
    return parser.render(text)


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
    arguments, one `name = value` line each, and expected return value (N.txt); N as the statement
    numbers them."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for number, example in numbered_examples(problem):
            if example.input is not None:
                archive.writestr(f"{number}.in", example.input.read())
                archive.writestr(f"{number}.ans", example.answer.read())
            else:
                named = "".join(f"{parameter.name} = {value!r}\n"  # (breaker 54b F12: "arguments: (1000, 1000,
                                for parameter, value in zip(problem.parameters, example.args))  # 1000)" read as three)
                archive.writestr(f"{number}.txt", f"{named}returns: {example.expected!r}\n")
    return buffer.getvalue()
