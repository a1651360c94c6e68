"""The verdict grid of a report page, light enough for 300 tests x 70 solutions.

A grid of one element per cell (21,000 of them) took chromium 1.1-1.3 s of CPU to parse, style and
lay out on the dev machine before anything of it showed. Here a solution's row is one cell of text
in a monospace font: each test has a slot of SLOT characters holding its verdict code (and, on the
line below, its CPU time), and the row's background is one gradient whose colour changes at slot
boundaries, in `ch` units, so colour and text stay aligned at any zoom. The header's test names are
rotated, one inline box of SLOT characters each, in the same font. The page's script finds the slot
under the pointer from its position (benchmarks/report_page.py measures the page).
"""

from __future__ import annotations

from ..verdicts import Verdict

SLOT = 5  # characters per test: a code or a CPU time of at most 4 characters, and a space between
NAME_SHOWN = 16  # characters of a test's name in the header (its whole name on hover)
NAMES_LISTED = 8  # tests named per verdict in a row's spoken summary

# Okabe-Ito hues, tuned so that every pair stays apart (CIELAB distance above 20) for normal vision and
# simulated protanopia, deuteranopia and tritanopia, each under black text at WCAG AA contrast or
# better (tests/test_reports.py computes both); the verdict is always written in the slot as well.
PALETTE = {"AC": "#a7f1b4", "WA": "#e66100", "TLE": "#ebd249", "MLE": "#9a69ad", "RE": "#689efc",
           "CE": "#b8c1e1", "IE": "#c97892", "none": "#ffffff"}
VERDICT_NAMES = [("AC", "accepted"), ("WA", "wrong answer"), ("TLE", "time limit"), ("MLE", "memory limit"),
                 ("RE", "runtime error"), ("CE", "does not load"), ("IE", "internal error"), ("none", "not run")]
# a thin white line between two slots, drawn over the colours
SEPARATORS = f"repeating-linear-gradient(90deg,#0000 0 calc({SLOT}ch - 1px),#fff calc({SLOT}ch - 1px) {SLOT}ch)"
CAUGHT, UNCAUGHT = "#eef3fb", "#ffd8a8"  # the "wrong solutions caught" row: a test that catches none stands out


def short_name(name: str, width: int = NAME_SHOWN) -> str:
    """A test's name for the narrow header: its start and its end, which tell apart names such as
    edge-thirteen-back-to-start-pit-2 and -pit-3."""
    if len(name) <= width:
        return name
    tail = (width - 1) // 2
    return name[: width - 1 - tail] + "\u2026" + name[-tail:]


def slot(text: str) -> str:
    return f" {text:<{SLOT - 1}}"[:SLOT]


def cpu_text(ms: float) -> str:
    """At most four characters: 0.4, 12.5, 123, 2003, 12s."""
    if ms < 10:
        return f"{ms:.1f}"
    if ms < 10_000:
        return f"{ms:.0f}"
    return f"{ms / 1000:.0f}s"


def background(colours: list[str]) -> str:
    """One CSS gradient: each slot's colour, runs of one colour merged, boundaries in ch."""
    stops, start = [], 0
    for index in range(1, len(colours) + 1):
        if index == len(colours) or colours[index] != colours[start]:
            stops.append(f"{colours[start]} {start * SLOT}ch {index * SLOT}ch")
            start = index
    return f"{SEPARATORS},linear-gradient(90deg,{','.join(stops)})"


def solution_strip(verdicts: list[Verdict | None], cpu_ms: list[float], names: list[str]) -> dict:
    """A solution's row: the codes line, the CPU line, the background, and what a screen reader says."""
    keys = [str(v) if v else "none" for v in verdicts]
    codes = "".join(slot(str(v) if v else "-") for v in verdicts)
    cpu = "".join(slot(cpu_text(ms) if v else "") for v, ms in zip(verdicts, cpu_ms))
    return {"codes": codes, "cpu": cpu.rstrip(), "background": background([PALETTE[k] for k in keys]),
            "label": spoken(keys, names)}


def catches_strip(counts: list[int]) -> dict:
    return {"codes": "".join(slot(str(n)) for n in counts),
            "background": background([CAUGHT if n else UNCAUGHT for n in counts])}


def spoken(keys: list[str], names: list[str]) -> str:
    """'AC on 296 of 300 tests; WA on system-004, random-009; TLE on ...': the row for a screen reader."""
    by_key: dict[str, list[str]] = {}
    for key, name in zip(keys, names):
        by_key.setdefault(key, []).append(name)
    parts = []
    for key, _ in VERDICT_NAMES:
        tests = by_key.get(key, [])
        if not tests:
            continue
        label = "not run" if key == "none" else key
        if key == "AC" or len(tests) > NAMES_LISTED:
            parts.append(f"{label} on {len(tests)} of {len(keys)} tests"
                         + (f", first {', '.join(tests[:NAMES_LISTED])}" if key != "AC" else ""))
        else:
            parts.append(f"{label} on {', '.join(tests)}")
    return "; ".join(parts)
