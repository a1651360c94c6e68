"""A problem's statement as HTML (our Markdown statements, a package's Markdown; a LaTeX statement as
its text), and its samples as a zip to download."""

from __future__ import annotations

import io
import zipfile

from ..reports.statement import STATEMENT_FILES


def statement_html(problem) -> str:
    """The statement's HTML: Markdown rendered without raw HTML (a statement's `<script>` is text)."""
    source = next((problem.path / name for name in STATEMENT_FILES if (problem.path / name).is_file()), None)
    if source is None:
        return "<p>(no statement file)</p>"
    text = source.read_text(encoding="utf-8", errors="replace")
    if source.suffix == ".tex":
        from markupsafe import escape

        return f'<pre class="tex">{escape(text)}</pre>'
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).enable("table").render(text)


def samples_zip(problem) -> bytes:
    """The statement's examples: a program's input and answer files (N.in, N.ans); a method's
    arguments and expected return value (N.txt)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for number, example in enumerate(problem.examples, 1):
            if example.input is not None:
                archive.writestr(f"{number}.in", example.input.read())
                archive.writestr(f"{number}.ans", example.answer.read())
            else:
                archive.writestr(f"{number}.txt", f"arguments: {', '.join(map(repr, example.args))}\n"
                                                  f"returns: {example.expected!r}\n")
    return buffer.getvalue()
