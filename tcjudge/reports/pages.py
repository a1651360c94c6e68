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

from ..engine.judging import data_text, input_text

from ..engine.results import GradeResult
from ..problems.catalog import display_path
from ..problems.format import Problem
from ..problems.tctypes import shorten
from ..verdicts import Verdict

EXPECTED_SHOWN = 200
GRID_LETTERS = {"AC": ".", "WA": "W", "TLE": "T", "MLE": "M", "RE": "R", "CE": "C", "IE": "I", None: " "}
SPREAD_WIDTH, SPREAD_HEIGHT, SPREAD_FLOOR_MS = 320, 18, 0.1

_environment = Environment(loader=PackageLoader("tcjudge.reports", "templates"),
                           autoescape=select_autoescape(default=True), trim_blocks=True, lstrip_blocks=True)


def is_wrong(result: GradeResult) -> bool:
    """A solution that should fail: its folder says so (stored), or it did (graded on its own)."""
    expected = result.expected or result.verdict
    return expected is not Verdict.AC


def catches(results: list[GradeResult]) -> list[int]:
    """For each test, how many wrong solutions fail on it (those that load: CE is caught by no test)."""
    wrong = [r for r in results if is_wrong(r) and not r.compile_message]
    return [sum(r.tests[i].verdict not in (Verdict.AC, None) for r in wrong) for i in range(len(results[0].tests))]


def problem_page(problem: Problem, results: list[GradeResult], changes: list, stamp: str, machine: str,
                 verdicts_only: bool = False) -> str:
    """The page; `verdicts_only` (--hide-expected) leaves each test's input and expected value out."""
    caught = catches(results)
    wrong = sum(is_wrong(r) and not r.compile_message for r in results)
    limit_ms = problem.time_limit * 1000
    tests = [{"index": i + 1, "name": t.name, "catches": caught[i]} for i, t in enumerate(problem.tests)]
    solutions = [{
        "path": display_path(r.solution), "expected": str(r.expected or "-"), "verdict": str(r.verdict),
        "match": r.expected is None or r.verdict is r.expected, "passed": r.passed,
        "slowest_ms": r.slowest.cpu_ms if r.slowest else None,
        "cells": [{"verdict": str(t.verdict) if t.verdict else "none", "cpu": _ms(t.cpu_ms) if t.verdict else ""}
                  for t in r.tests],
        "spread": spread_svg([t.cpu_ms for t in r.tests if t.verdict], limit_ms),
    } for r in results]
    details = {
        "input_label": problem.kind.input_label,
        "tests": [[t.name, "", ""] if verdicts_only else
                  [t.name, input_text(t), data_text(t.answer, EXPECTED_SHOWN) if t.answer else _shown(t.expected)]
                  for t in problem.tests],
        "solutions": [{"path": display_path(r.solution), "message": r.compile_message,
                       "cells": [[str(t.verdict or "not run"), round(t.cpu_ms, 1), round(t.wall_ms, 1),
                                  round(t.memory_mib, 1), t.returned, t.message, t.output] for t in r.tests]}
                      for r in results],
    }
    return _environment.get_template("problem.html").render(
        problem=problem, tests=tests, solutions=solutions, wrong=wrong, stamp=stamp, machine=machine,
        uncaught=[t["name"] for t in tests if not t["catches"]] if wrong else [], changes=changes,
        limit_ms=limit_ms, axis=spread_axis(limit_ms), details=details)


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
            "matched": sum(s.get("expected", s["verdict"]) == s["verdict"] for s in solutions),
            "mismatched": [s["solution"] for s in solutions if s.get("expected", s["verdict"]) != s["verdict"]],
            "slowest": slowest and {"solution": slowest["solution"], "cpu_ms": slowest["slowest"]["cpu_ms"]},
            "limit_ms": limit_ms,
            "bar": slowest and min(1.0, slowest["slowest"]["cpu_ms"] / limit_ms),
            "changes": len(report.get("changes", [])),
        }
    except (KeyError, IndexError, TypeError, ZeroDivisionError):
        return None


def write_index(out_dir: Path) -> Path:
    """DIR/index.html: every problem whose page and JSON are in DIR."""
    summaries = []
    for path in sorted(out_dir.glob("*.json")):
        try:
            summary = summary_of(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            summary = None
        if summary and (out_dir / f"{summary['slug']}.html").is_file():
            summaries.append(summary)
    index = out_dir / "index.html"
    index.write_text(index_page(summaries, time.strftime("%Y-%m-%d %H:%M:%S %Z")), encoding="utf-8")
    return index


# -- CPU spread: each test's CPU time on a log scale up to the limit -------------------------------

def _x(ms: float, limit_ms: float) -> float:
    top = math.log10(limit_ms * 1.25 / SPREAD_FLOOR_MS)
    return round(SPREAD_WIDTH * math.log10(max(ms, SPREAD_FLOOR_MS) / SPREAD_FLOOR_MS) / top, 1)


def spread_svg(cpu_ms: list[float], limit_ms: float) -> dict:
    """Positions for the template: one tick per test, the median, the limit."""
    ordered = sorted(cpu_ms)
    median = ordered[len(ordered) // 2] if ordered else None
    return {"ticks": sorted({_x(ms, limit_ms) for ms in cpu_ms}), "limit": _x(limit_ms, limit_ms),
            "median": _x(median, limit_ms) if median is not None else None,
            "median_ms": median, "max_ms": ordered[-1] if ordered else None,
            "width": SPREAD_WIDTH, "height": SPREAD_HEIGHT}


def spread_axis(limit_ms: float) -> list[tuple[float, str]]:
    marks = [(ms, label) for ms, label in ((1, "1 ms"), (10, "10 ms"), (100, "100 ms"), (1000, "1 s"), (10000, "10 s"))
             if ms < limit_ms * 0.8]
    return [(_x(ms, limit_ms), label) for ms, label in marks]


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


def _ms(value: float) -> str:
    return f"{value:.0f}" if value >= 10 else f"{value:.1f}"


def _shown(value) -> str:
    return shorten(repr(list(value) if isinstance(value, tuple) else value), EXPECTED_SHOWN)
