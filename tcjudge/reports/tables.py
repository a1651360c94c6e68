"""What people read: per-test tables, check summaries and report files (Markdown and JSON)."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from tabulate import tabulate

from ..problems.catalog import display_path, own_path
from ..engine.results import OUTPUT_KEPT, GradeResult
from ..verdicts import Verdict
from .history import Change, History, Judged, Outcome
from ..problems.tctypes import shorten
from ..text import count, format_score, markdown_cell, safe_text, score_of
from ..errors import JudgeInputError
from ..formats import versioned

MESSAGE_WIDTH = 70


def test_table(result: GradeResult, fmt: str = "simple") -> str:
    """One row per test that ran; tests left unrun (after a failure, or a compile error) are counted."""
    ran = [t for t in result.tests if t.verdict]
    cell = markdown_cell if fmt == "github" else str
    rows = [[t.name, str(t.verdict), f"{t.cpu_ms:.1f}", f"{t.wall_ms:.1f}", f"{t.memory_mib:.1f}",
             cell(shorten(t.message, MESSAGE_WIDTH))] for t in ran]
    headers = ["test", "verdict", "CPU ms", "wall ms", "memory MiB", "message"]
    if result.problem.grading is not None:  # a scoring problem: each test's score beside its verdict
        rows = [row[:2] + [format_score(t.score)] + row[2:] for row, t in zip(rows, ran)]
        headers = headers[:2] + ["score"] + headers[2:]
    table = tabulate(rows, headers, tablefmt=fmt, disable_numparse=True) if rows else ""
    unrun = len(result.tests) - len(ran)
    note = f"({unrun} of {count(len(result.tests), 'test')} not run)" if unrun else ""
    return "\n".join(part for part in (table, note) if part)


def summary_line(result: GradeResult) -> str:
    parts = [f"{result.verdict}", f"passed {result.passed}/{len(result.tests)}"]
    slowest = result.slowest
    if slowest:
        parts.append(f"slowest {slowest.name} ({slowest.cpu_ms:.0f} ms CPU)")
    parts.append(f"limits {result.problem.time_limit:g} s, {result.problem.memory_limit} MiB")
    line = "  ".join(parts) + score_lines(result)
    failure = result.first_failure
    if result.compile_message:
        line += f"\n{display_path(result.solution)}: {result.compile_message}"
    elif failure:
        line += f"\nfirst failure: {failure.name}: {failure.message}"
        if failure.input:
            line += f"\n  input: {safe_text(failure.input)}"  # one line: a stdin input's new lines as \x0a
    if (result.verdict is Verdict.IE and not result.compile_message and result.internal_error
            and (failure is None or failure.verdict is not Verdict.IE)):  # the IE decides (a grader's too): say why
        line += f"\ninternal error: {result.internal_error}"
    return line


def internal_errors(results: list[GradeResult]) -> str:
    """One line per solution the judge failed on (IE), with where and why: a table shows only the verdict."""
    return "\n".join(f"  IE  {display_path(r.solution)}: {r.internal_error}" for r in results if r.verdict is Verdict.IE)


def score_lines(result: GradeResult) -> str:
    """A scoring problem's total and each group's score (and verdict), one line each."""
    scored = result.scored
    if scored is None:
        return ""
    lines = [f"\nscore {score_of(scored.total, scored.maximum)}"]
    lines += [f"  {group.name}: {score_of(group.score, group.maximum)} ({group.verdict})" for group in scored.groups]
    return "\n".join(lines)


def failing_output(result: GradeResult) -> str:
    """What each failing test printed (`grade --show-output`); TestResult has made it safe to show."""
    parts = []
    for test in result.tests:
        if test.verdict not in (Verdict.AC, None) and test.output:
            parts.append(f"--- output of {test.name} ({test.verdict}, first {OUTPUT_KEPT} characters at most) ---")
            parts.append(test.output.rstrip("\n"))  # made safe in TestResult
    if parts:
        return "\n".join(parts)
    # a program's standard output is its answer: what is shown is what it wrote to standard error
    return ("(no failing test wrote anything to standard error; the exception, if any, is in the failure line)"
            if result.problem.kind.program else "(no failing test printed anything)")


def check_row(result: GradeResult) -> list[str]:
    """One solution's line: only figures that are the same in every run at any -j (which test
    fails first, never how many tests happened to run, nor timings)."""
    return [
        display_path(result.solution), result.expectation, result.outcome,
        first_failing(result),
        "ok" if result.matched else "MISMATCH",
    ]


def first_failing(result: GradeResult) -> str:
    """The first failing test and its verdict (an IE anywhere first: it decides the grade)."""
    if result.compile_message:
        return "(does not load)"
    failing = next((t for t in result.tests if t.verdict is Verdict.IE), None) or result.first_failure
    return f"{failing.name} {failing.verdict}" if failing else "-"


CHECK_HEADERS = ["solution", "expected", "got", "first failing test", "match"]


def check_table(rows: list[list[str]], fmt: str = "simple") -> str:
    if fmt == "github":  # a file name is the submitter's: a pipe or a tag in it must stay text
        rows = [[markdown_cell(cell) for cell in row] for row in rows]
    return tabulate(rows, CHECK_HEADERS, tablefmt=fmt, disable_numparse=True)


def write_report(out_dir: Path, slug: str, results: list[GradeResult], changes: list[Change],
                 verdicts_only: bool = False, run: int | None = None) -> list[Path]:
    """DIR/<slug>.md (summary and grid), DIR/<slug>.json (everything as data) and DIR/<slug>.html (the
    page); returns the paths. `verdicts_only` (--hide-expected): no test's input or expected value;
    `run`: the run's id in the history, for the index to compare it with the previous report."""
    from .pages import catches, is_wrong, markdown_grid, problem_page  # jinja2: only where a page is made

    out_dir.mkdir(parents=True, exist_ok=True)
    problem = results[0].problem
    stamp = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    lines = [f"# Verdict report: {problem.name}", "",
             f"{problem.source}. `{problem.signature}`; limits {problem.time_limit:g} s CPU, "
             f"{problem.memory_limit} MiB; {count(len(problem.tests), 'test')}. Generated {stamp} on {machine()}.", "",
             "## Solutions", "", check_table([check_row(r) for r in results], "github"), ""]
    failing = [(r, r.first_failure) for r in results if r.first_failure]
    if failing:
        lines += ["First failures:", ""]
        lines += [f"- {markdown_cell(display_path(r.solution))}: {f.name}: {markdown_cell(f.message)}" for r, f in failing]
        lines.append("")
    if changes:
        lines += ["## Changes since the last run", ""]
        lines += [f"- {markdown_cell(change.solution)}: {change.what}" for change in changes]
        lines.append("")
    lines += ["## Grid", ""] + markdown_grid(results)
    uncaught = [t.name for t, caught in zip(problem.tests, catches(results)) if not caught]
    if any(is_wrong(r) for r in results):
        lines += ["", f"Tests that catch no wrong solution: {', '.join(uncaught) or 'none'}."]
    markdown = out_dir / f"{slug}.md"
    data = out_dir / f"{slug}.json"
    payload = versioned({"problem": slug, "name": problem.name, "generated": stamp, "machine": machine(), "run": run,
                         "solutions": [r.to_json() for r in results], "changes": [c.to_json() for c in changes]})
    data.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")  # the data first, whatever follows
    markdown.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="backslashreplace")
    page = out_dir / f"{slug}.html"
    page.write_text(problem_page(problem, results, changes, stamp, machine(), verdicts_only), encoding="utf-8")
    return [markdown, data, page]


def machine() -> str:
    system = os.uname()
    return f"{system.sysname} {system.release}, {system.machine}, Python {sys.version.split()[0]}"



# -- the history: what was reused, what changed, runs over time ------------------------------------

def reused_note(judged: Judged) -> str:
    if not judged.reused:
        return ""
    return f"; {judged.reused} of {count(len(judged.results), 'result')} reused from the history, --fresh grades them again"


def changes_section(outcome: Outcome) -> str:
    """The verdict changes and CPU slow-downs since each solution's previous recorded run."""
    first = f" ({count(outcome.first_seen, 'solution')} had no earlier run)" if outcome.first_seen else ""
    if not outcome.changes:
        return f"changes since the last run: none{first}"
    lines = [f"changes since the last run{first}:"]
    lines += [f"  {change.solution}: {change.what}" for change in outcome.changes]
    return "\n".join(lines)


def run_json(judged: Judged, left_out: dict[Path, str] | None = None, broken: dict[str, str] | None = None) -> dict:
    """check's and report's --json: every result, the changes, how many results were reused, the
    submissions left out for a fault of their own (`left_out`: each `solution` and `reason`) and the
    problems left out because they do not load (`problems_left_out`: each `problem` and `reason`)."""
    return {"solutions": [result.to_json() for result in judged.results],
            "changes": [change.to_json() for change in judged.outcome.changes],
            "reused": judged.reused, "run": judged.outcome.run_id,
            "left_out": [{"solution": str(path), "reason": safe_text(why)} for path, why in (left_out or {}).items()],
            "problems_left_out": [{"problem": slug, "reason": safe_text(why)} for slug, why in (broken or {}).items()]}


def left_out_note(left_out: dict[Path, str], broken: dict[str, str] | None = None) -> str:
    """The summary's words for the submissions left out for a fault of their own, and the problems
    left out because they do not load ("" when none)."""
    note = f"; {count(len(left_out), 'submission')} left out, see the notes above" if left_out else ""
    if broken:
        note += f"; {count(len(broken), 'problem')} left out, not loading ({', '.join(safe_text(s) for s in broken)})"
    return note


def history_text(history: History, target: str | None, limit: int) -> str:
    """`history`: the latest runs; with a problem, its solutions' verdicts run by run; with a
    solution file, its results over time."""
    if target is None:
        return _runs_table(history, limit)
    path = Path(target)
    if path.suffix or path.exists() or str(own_path(path)) in history.known_solutions():
        rows = history.timeline(str(own_path(path)), None, limit)
        if not rows:
            raise JudgeInputError(f"no recorded run of {target}", history.path)
        return tabulate([_result_row(row) for row in rows], ["run", "when", "command", "verdict", "expected", "passed",
                        "slowest", "content", "reuse"], disable_numparse=True)
    rows = history.timeline(None, target, 10_000)
    if not rows:
        raise JudgeInputError(f"no recorded run of a problem {target!r}", history.path)
    return _verdict_matrix(rows, limit)


def _runs_table(history: History, limit: int) -> str:
    rows = []
    for run_id, started, finished, command, status, solutions, reused, matched, stored, problems in history.runs(limit):
        rows.append([run_id, _when(started), command, f"{finished - started:.1f} s" if finished else "-", status,
                     solutions, reused or 0, f"{matched or 0}/{stored}" if stored else "-",
                     ", ".join(sorted((problems or "").split(",")))])
    if not rows:
        return f"no runs recorded in {display_path(history.path)}"
    return tabulate(rows, ["run", "when", "command", "took", "status", "solutions", "reused", "matched", "problems"],
                    disable_numparse=True)


def _result_row(row: tuple) -> list:
    run_id, started, command, status, _, content, expected, verdict, all_tests, reused, slowest, passed, total = row
    notes = [note for note, on in (("reused", reused), ("partial", not all_tests), (status, status != "complete")) if on]
    return [run_id, _when(started), command, verdict, expected or "-", f"{passed}/{total}",
            f"{slowest:.0f} ms" if slowest is not None else "-", content[:8], ", ".join(notes)]


def _verdict_matrix(rows: list[tuple], limit: int) -> str:
    """Solutions down, the problem's latest runs across (oldest left), verdicts in the cells."""
    runs = sorted({row[0] for row in rows})[-min(limit, 12):]
    cells: dict[str, dict[int, str]] = {}
    for run_id, _, _, status, solution, *_, verdict, all_tests, _, _, _, _ in rows:
        if run_id in runs:
            mark = verdict + ("*" if not all_tests else "") + ("!" if status != "complete" else "")
            cells.setdefault(display_path(Path(solution)), {}).setdefault(run_id, mark)
    table = [[solution] + [by_run.get(run_id, "") for run_id in runs] for solution, by_run in sorted(cells.items())]
    headers = ["solution"] + [f"run {run_id}" for run_id in runs]
    return (tabulate(table, headers, disable_numparse=True)
            + "\n(* a partial run: --examples or --test; ! an interrupted run)")


def _when(stamp: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp))
