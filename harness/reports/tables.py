"""What people read: per-test tables, check summaries and report files (Markdown and JSON)."""

from __future__ import annotations

import json
import platform
import sys
import time
from pathlib import Path

from tabulate import tabulate

from ..problems.catalog import display_path
from ..engine.grading import GradeResult
from ..problems.tctypes import shorten
from ..text import markdown_cell

MESSAGE_WIDTH = 70


def test_table(result: GradeResult, fmt: str = "simple") -> str:
    """One row per test that ran; tests left unrun (after a failure, or a compile error) are counted."""
    ran = [t for t in result.tests if t.verdict]
    cell = markdown_cell if fmt == "github" else str
    rows = [[t.name, str(t.verdict), f"{t.cpu_ms:.1f}", f"{t.wall_ms:.1f}", f"{t.memory_mib:.1f}",
             cell(shorten(t.message, MESSAGE_WIDTH))] for t in ran]
    headers = ["test", "verdict", "CPU ms", "wall ms", "memory MiB", "message"]
    table = tabulate(rows, headers, tablefmt=fmt, disable_numparse=True) if rows else ""
    unrun = len(result.tests) - len(ran)
    note = f"({unrun} of {len(result.tests)} tests not run)" if unrun else ""
    return "\n".join(part for part in (table, note) if part)


def summary_line(result: GradeResult) -> str:
    parts = [f"{result.verdict}", f"passed {result.passed}/{len(result.tests)}"]
    slowest = result.slowest
    if slowest:
        parts.append(f"slowest {slowest.name} ({slowest.cpu_ms:.0f} ms CPU)")
    parts.append(f"limits {result.problem.time_limit:g} s, {result.problem.memory_limit} MiB")
    line = "  ".join(parts)
    if result.compile_message:
        line += f"\n{display_path(result.solution)}: {result.compile_message}"
    elif result.first_failure:
        line += f"\nfirst failure: {result.first_failure.name}: {result.first_failure.message}"
    return line


def check_row(result: GradeResult) -> list[str]:
    slowest = result.slowest
    return [
        display_path(result.solution), str(result.expected), str(result.verdict),
        f"{result.passed}/{len(result.tests)}",
        f"{slowest.cpu_ms:.0f} ms" if slowest else "-",
        "ok" if result.verdict is result.expected else "MISMATCH",
    ]


CHECK_HEADERS = ["solution", "expected", "got", "passed", "slowest", ""]


def check_table(rows: list[list[str]], fmt: str = "simple") -> str:
    return tabulate(rows, CHECK_HEADERS, tablefmt=fmt, disable_numparse=True)


def write_report(out_dir: Path, slug: str, results: list[GradeResult]) -> list[Path]:
    """reports/<slug>.md (tables) and reports/<slug>.json (the same as data); returns the paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    problem = results[0].problem if results else None
    stamp = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    lines = [f"# Verdict report: {problem.name if problem else slug}", ""]
    if problem:
        lines += [f"{problem.source}. `{problem.signature}`; limits {problem.time_limit:g} s CPU, "
                  f"{problem.memory_limit} MiB; {len(problem.tests)} tests.", ""]
    lines += [f"Generated {stamp} on {machine()}.", "", "## Solutions", ""]
    lines += [check_table([check_row(r) for r in results], "github"), ""]
    for result in results:
        lines += [f"## {display_path(result.solution)}", "", summary_line(result).replace("\n", "  \n"), "",
                  test_table(result, "github"), ""]
    markdown = out_dir / f"{slug}.md"
    data = out_dir / f"{slug}.json"
    payload = {"problem": slug, "generated": stamp, "machine": machine(),
               "solutions": [r.to_json() for r in results]}
    data.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")  # the data first, whatever follows
    markdown.write_text("\n".join(lines), encoding="utf-8", errors="backslashreplace")
    return [markdown, data]


def machine() -> str:
    return f"{platform.system()} {platform.release()}, {platform.machine()}, Python {sys.version.split()[0]}"

