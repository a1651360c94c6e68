"""A Kattis package's LaTeX statement as `judge serve` shows it (serve/latex.py). Breaker 54b F1-F2 read
22 GCPC statements in chromium: their own macros vanished (and their definitions showed as a
paragraph), \\illustration's width and file name were printed, `\\&` kept its backslash, TeX's quotes
were shown as typed, and Input and Output were run-on text with their lists in one paragraph."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("latex2mathml")

from tcjudge.serve.latex import latex_html  # noqa: E402
from tcjudge.serve.statements import math  # noqa: E402

STATEMENT = r"""\problemname{Test Problem}
\newcommand\hero{Max}
\newcommand{\maxn}{10^5}
\newcommand{\pair}[2]{(#1, #2)}
\def\city{Berlin}% a comment
\illustration{0.31}{prompt}{\hero{} at a desk, \href{https://example.com/a\%20b}{Some Author}\vspace{-0.5cm}}%
\hero{} lives in \city{} and plays \emph{Dungeons \& Dragons} at 50\% of the time -- or `sometimes'.
He writes ``hello'' in \texttt{main.cpp} and takes the pair $\pair{a}{b}$.

\begin{Input}
  The input consists of:
  \begin{itemize}
    \item One line with an integer $n$ ($1 \le n \le \maxn$).
    \item One line with a string.
  \end{itemize}
\end{Input}

\begin{Output}
  Output one integer.
\end{Output}
"""


def test_a_latex_statement_reads_as_its_pdf_does():
    html = latex_html(STATEMENT, math)
    text = re.sub(r"<math.*?</math>", "[math]", html, flags=re.DOTALL)
    assert "Max lives in Berlin" in text and "Max at a desk" in text  # (before: "lives in  and")
    assert "\\" not in text and "0.31" not in text and "prompt" not in text and "-0.5cm" not in text
    assert '<figure class="illustration"><figcaption>Figure 1: Max at a desk, <a href="https://example.com/a%20b">' \
           'Some Author</a></figcaption></figure>' in html
    assert "<em>Dungeons &amp; Dragons</em> at 50% of the time \u2013 or \u2018sometimes\u2019." in text
    assert "\u201chello\u201d in <code>main.cpp</code>" in text
    assert text.index("<h2>Input</h2>") < text.index("<ul>") < text.index("<h2>Output</h2>")
    assert re.search(r"<ul>\s*<li>\s*One line with an integer \[math\] \(\[math\]\)\.\s*</li><li>\s*One line with a "
                     r"string\.\s*</li></ul>", text), text
    bound = re.findall(r"<math.*?</math>", html, flags=re.DOTALL)[2]  # $1 \le n \le \maxn$: the macro inside
    assert "<mn>10</mn>" in bound and "<mn>5</mn>" in bound and "maxn" not in bound
    pair = re.findall(r"<math.*?</math>", html, flags=re.DOTALL)[0]
    assert "<mi>a</mi>" in pair and "<mi>b</mi>" in pair and "pair" not in pair


def test_a_reference_to_a_figure_is_its_number():
    """Breaker 55b F4: `Figure~\\ref{fig:bricks}` read "Figure ." (a \\ref was dropped). Figures and
    \\illustrations are numbered in order, as LaTeX numbers them, and their captions say it; a \\ref to
    any other label is left out, as before."""
    html = latex_html("As in Figure~\\ref{fig:b}, not \\ref{eq:x}.\n\\illustration{0.3}{a.pdf}{First}\n"
                      "\\begin{figure}\\caption{Bricks}\\label{fig:b}\\end{figure}", math)
    assert re.search(r"As in Figure\s2, not \.", html), html  # (before: "As in Figure , not .")
    assert "<figcaption>Figure 1: First</figcaption>" in html and "<figcaption>Figure 2: Bricks</figcaption>" in html


def test_a_macro_that_uses_itself_stops():
    assert latex_html("\\newcommand\\loop{\\loop x}\n\\loop{} end", math) == "<p>" + "x " * 10 + "end</p>"
