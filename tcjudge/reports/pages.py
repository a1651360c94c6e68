"""The report pages: DIR/<slug>.html (a solutions x tests grid, what each test catches, CPU spread
per solution) and DIR/index.html (every problem in DIR at a glance), plus the Markdown grid.

Pages are single self-contained files (inline CSS, SVG and a few lines of script; no network
resource), so they open offline and as CI artifacts. jinja2 renders them with autoescaping on: every
string that reaches a page is escaped, and the per-cell details travel as JSON that the page's script
puts into the document with textContent, never as markup.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

from jinja2 import Environment, PackageLoader, select_autoescape

from ..engine.judging import expected_text, input_text

from ..engine.results import GradeResult
from ..problems.catalog import display_path
from ..problems.format import Problem
from ..verdicts import Verdict
from ..text import count, score_of
from .history import History, SinceLastReport
from .grid import PALETTE, SLOT, VERDICT_NAMES, catches_strip, short_name, solution_strip

EXPECTED_SHOWN = 200
CHANGES_LISTED = 6  # changes named per problem on the index (then "and N more")
GRID_LETTERS = {"AC": ".", "WA": "W", "TLE": "T", "MLE": "M", "RE": "R", "CE": "C", "IE": "I", None: " "}
SPREAD_WIDTH, SPREAD_HEIGHT, SPREAD_FLOOR_MS = 320, 18, 0.1
AXIS_WIDTH = SPREAD_WIDTH + 80  # room right of the plot for the limit's label
CHAR_WIDTH, LABEL_GAP = 6.5, 6  # px per character of a 10px axis label (an upper bound), and between two labels

_environment = Environment(loader=PackageLoader("tcjudge.reports", "templates"),
                           autoescape=select_autoescape(default=True), trim_blocks=True, lstrip_blocks=True)
_environment.globals["palette"] = PALETTE


def is_wrong(result: GradeResult) -> bool:
    """A solution that should fail: its folder says so (stored), or it did (graded on its own)."""
    if result.expected is not None:
        return not result.expected.allows_accepted
    return result.verdict is not Verdict.AC


def catches(results: list[GradeResult]) -> list[int]:
    """For each test, how many wrong solutions fail on it (those that load: CE is caught by no test)."""
    wrong = [r for r in results if is_wrong(r) and not r.compile_message]
    return [sum(r.tests[i].verdict not in (Verdict.AC, None) for r in wrong) for i in range(len(results[0].tests))]


def score_cells(result: GradeResult) -> dict:
    """A scoring problem's total and each group's score, as the page shows them."""
    scored = result.scored
    if scored is None:
        return {"score": "", "groups": ""}
    return {"score": score_of(scored.total, scored.maximum) + (f" (internal error: {scored.fault})" if scored.fault else ""),
            "groups": "; ".join(f"{g.name} {score_of(g.score, g.maximum)} {g.verdict}" for g in scored.groups)}


def problem_page(problem: Problem, results: list[GradeResult], changes: list, stamp: str, machine: str,
                 verdicts_only: bool = False) -> str:
    """The page; `verdicts_only` (--hide-expected) leaves each test's input and expected value out."""
    caught = catches(results)
    wrong = sum(is_wrong(r) and not r.compile_message for r in results)
    limit_ms = problem.time_limit * 1000
    names = [t.name for t in problem.tests]
    tests = [{"name": name, "short": short_name(name), "catches": caught[i]} for i, name in enumerate(names)]
    solutions = [{
        "path": display_path(r.solution), "expected": r.expectation if r.expected else "-", "verdict": str(r.verdict),
        "match": r.matched, "passed": r.passed, **score_cells(r),
        "slowest_ms": r.slowest.cpu_ms if r.slowest else None,
        "strip": solution_strip([t.verdict for t in r.tests], [t.cpu_ms for t in r.tests], names),
        "spread": spread_svg([t.cpu_ms for t in r.tests if t.verdict], limit_ms),
    } for r in results]
    details = {
        "input_label": problem.kind.input_label,
        "tests": [[t.name, "", ""] if verdicts_only else
                  [t.name, input_text(t), expected_text(t, EXPECTED_SHOWN)]
                  for t in problem.tests],
        "solutions": [{"path": display_path(r.solution), "message": r.compile_message,
                       "cells": [[str(t.verdict or "not run"), round(t.cpu_ms, 1), round(t.wall_ms, 1),
                                  round(t.memory_mib, 1), t.returned, t.message, t.output] for t in r.tests]}
                      for r in results],
    }
    return _environment.get_template("problem.html").render(
        problem=problem, tests=tests, solutions=solutions, wrong=wrong, stamp=stamp, machine=machine,
        scoring=problem.grading is not None,
        uncaught=[t["name"] for t in tests if not t["catches"]] if wrong else [], changes=changes,
        limit_ms=limit_ms, axis=spread_axis(limit_ms), details=details, verdict_names=VERDICT_NAMES,
        slot=SLOT, catches_row=catches_strip(caught))


def index_page(summaries: list[dict], stamp: str) -> str:
    return _environment.get_template("index.html").render(problems=summaries, stamp=stamp)


def summary_of(report: dict) -> dict | None:
    """The index's row for one problem, from its <slug>.json (so the index covers every problem in
    DIR, not only those of the last run); None for a file that is not one of our reports."""
    try:
        solutions = report["solutions"]
        limit_ms = solutions[0]["limits"]["time_s"] * 1000
        accepted = [s for s in solutions if s["verdict"] == "AC" and s.get("slowest")]
        slowest = max(accepted, key=lambda s: s["slowest"]["cpu_ms"], default=None)
        return {
            "slug": report["problem"], "name": report.get("name", report["problem"]), "generated": report["generated"],
            "solutions": len(solutions), "tests": solutions[0]["total"],
            "matched": sum(_matched(s) for s in solutions),
            "mismatched": [s["solution"] for s in solutions if not _matched(s)],
            "slowest": slowest and {"solution": slowest["solution"], "cpu_ms": slowest["slowest"]["cpu_ms"]},
            "limit_ms": limit_ms,
            "bar": slowest and min(1.0, slowest["slowest"]["cpu_ms"] / limit_ms),
            "run": report.get("run"),
        }
    except (KeyError, IndexError, TypeError, ZeroDivisionError):
        return None


def _matched(solution: dict) -> bool:
    """A solution of a report met its expectation (reports written before `matched` compare verdicts)."""
    return solution.get("matched", solution.get("expected", solution["verdict"]) == solution["verdict"])


def write_index(out_dir: Path, history: History | None = None) -> Path:
    """DIR/index.html: every problem whose page and JSON are in DIR, those with a mismatch first, each
    with what changed since its previous report (from `history`)."""
    summaries = []
    for path in sorted(out_dir.glob("*.json")):
        try:
            summary = summary_of(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            summary = None
        if summary and (out_dir / f"{summary['slug']}.html").is_file():
            summary["since"] = since_text(history.since_last_report(summary["slug"], summary["run"]) if history else None)
            summaries.append(summary)
    summaries.sort(key=lambda s: (not s["mismatched"], not s["since"]["changes"], s["name"].lower(), s["slug"]))
    index = out_dir / "index.html"
    index.write_text(index_page(summaries, time.strftime("%Y-%m-%d %H:%M:%S %Z")), encoding="utf-8")
    return index


def since_text(since: SinceLastReport | None) -> dict:
    """The index's "since the previous report" cell: a headline and the changes, each solution
    named by its folder and file."""
    if since is None:
        return {"headline": "not in the run history", "changes": [], "new": []}
    if since.previous_run is None:
        return {"headline": "first report", "changes": [], "new": []}
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(since.previous_started))
    short = [(_short_path(c.solution), c.what) for c in since.changes]
    headline = f"{count(len(short), 'change')} since {when}" if short else f"none since {when}"
    return {"headline": headline, "changes": short[:CHANGES_LISTED], "more": len(short) - CHANGES_LISTED,
            "new": [_short_path(s) for s in since.new]}


def _short_path(path: str) -> str:
    return "/".join(path.rsplit("/", 2)[-2:])


# -- CPU spread: each test's CPU time on a log scale up to the limit -------------------------------

def _x(ms: float, limit_ms: float) -> float:
    top = math.log10(limit_ms * 1.25 / SPREAD_FLOOR_MS)
    return round(SPREAD_WIDTH * math.log10(max(ms, SPREAD_FLOOR_MS) / SPREAD_FLOOR_MS) / top, 1)


def spread_svg(cpu_ms: list[float], limit_ms: float) -> dict:
    """Positions for the template: one tick per test, the median, the limit."""
    ordered = sorted(cpu_ms)
    median = ordered[len(ordered) // 2] if ordered else None
    ticks = sorted({_x(ms, limit_ms) for ms in cpu_ms})
    return {"ticks": "".join(f"M{x:g} 3V{SPREAD_HEIGHT - 3}" for x in ticks), "limit": _x(limit_ms, limit_ms),
            "median": _x(median, limit_ms) if median is not None else None,
            "median_ms": median, "max_ms": ordered[-1] if ordered else None,
            "width": SPREAD_WIDTH, "height": SPREAD_HEIGHT}


def spread_axis(limit_ms: float) -> dict:
    """The scale's labels: the limit's own ("2 s limit", right of its red line) and the round figures
    whose label keeps clear of it and of each other (a "1 s" beside a 2 s limit once read "1 s limit")."""
    limit_x = _x(limit_ms, limit_ms)
    labels = [{"x": round(limit_x + 3, 1), "text": f"{_seconds(limit_ms)} limit", "anchor": "start", "limit": True}]
    for ms, text in ((1, "1 ms"), (10, "10 ms"), (100, "100 ms"), (1000, "1 s"), (10000, "10 s")):
        label = {"x": _x(ms, limit_ms), "text": text, "anchor": "middle", "limit": False}
        if ms < limit_ms and _fits(label, AXIS_WIDTH) and not any(_overlap(label, other) for other in labels):
            labels.append(label)
    return {"labels": sorted(labels, key=lambda label: label["x"]), "width": AXIS_WIDTH}


def label_span(label: dict) -> tuple[float, float]:
    """Where a label's text lies along the axis, at most (CHAR_WIDTH per character)."""
    width = len(label["text"]) * CHAR_WIDTH
    start = {"start": label["x"], "middle": label["x"] - width / 2, "end": label["x"] - width}[label["anchor"]]
    return start, start + width


def _overlap(a: dict, b: dict) -> bool:
    (a0, a1), (b0, b1) = label_span(a), label_span(b)
    return a0 < b1 + LABEL_GAP and b0 < a1 + LABEL_GAP


def _fits(label: dict, width: float) -> bool:
    start, end = label_span(label)
    return start >= 0 and end <= width


def _seconds(ms: float) -> str:
    return f"{ms / 1000:g} s" if ms >= 1000 else f"{ms:g} ms"


# -- Markdown: a compact summary and the grid as letters --------------------------------------------

def markdown_grid(results: list[GradeResult]) -> list[str]:
    """One line per solution, one character per test (. AC, W WA, T TLE, M MLE, R RE, C CE, I IE,
    blank: not run), in a code block with a ruler every ten tests."""
    count = len(results[0].tests)
    width = max(len(display_path(r.solution)) for r in results)
    ruler = "".join(str(i // 10 % 10) if i % 10 == 0 else " " for i in range(1, count + 1))
    lines = ["```", f"{'test':<{width}}  {ruler}"]
    for result in results:
        marks = "".join(GRID_LETTERS[str(t.verdict) if t.verdict else None] for t in result.tests)
        lines.append(f"{display_path(result.solution):<{width}}  {marks}")
    lines += ["```", "", "`.` AC, `W` WA, `T` TLE, `M` MLE, `R` RE, `C` CE, `I` IE, blank: not run; "
              "the ruler's digits stand above tests 10, 20, 30, ... (their tens digit)."]
    return lines
