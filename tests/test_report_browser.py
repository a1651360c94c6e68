"""The report pages in a real browser (Debian's chromium, headless, over the DevTools protocol:
tests/browser.py): the grid's test names, the verdict written in every slot, the sticky header and
solution column, a click landing on the slot under the pointer, chart labels apart, and axe-core's
accessibility check. Each test skips, saying why, where chromium or axe-core is not installed
(.ci/run installs both)."""

from __future__ import annotations

import json

import pytest

from tcjudge.reports.grid import SLOT, short_name
from tcjudge.reports.tables import write_report

from .browser import Browser, axe_missing, big_results, missing
from .test_reports import project, run  # noqa: F401 (fixtures: the adder fixture in a temp folder, the CLI)

pytestmark = pytest.mark.skipif(missing() is not None, reason=str(missing()))

# The grid as the browser shows it: each name's text, title and box; each solution row's codes line
# cut into slots; the boxes of the scrolling area, of the header and of the first solution cell.
GRID = """(() => {
  const box = document.getElementById('scroll'), grid = document.getElementById('grid');
  const rect = e => { const r = e.getBoundingClientRect(); return {left: r.left, top: r.top, width: r.width, height: r.height}; };
  return {
    names: [...grid.querySelectorAll('th.names span')].map(s => ({text: s.textContent, title: s.title, box: rect(s)})),
    rows: [...grid.querySelectorAll('tr.solution td.strip')].map(td => td.textContent.split('\\n')[0]),
    box: rect(box), header: rect(grid.querySelector('th.names')), corner: rect(grid.querySelector('thead th.sol')),
    solution: rect(grid.querySelector('tbody th.sol')),
    strip: rect(grid.querySelector('tbody td.strip')),
  };
})()"""

# Where slot `t` of solution row `s` is on the screen (from the text itself: a Range over its characters).
SLOT_BOX = """((s, t, slot) => {
  const text = document.querySelectorAll('#grid tr.solution td.strip')[s].firstChild, range = document.createRange();
  range.setStart(text, t * slot); range.setEnd(text, t * slot + slot);
  const r = range.getBoundingClientRect();
  return {left: r.left, top: r.top, width: r.width, height: r.height};
})"""

DETAIL = "(() => { const d = document.getElementById('detail'); return d.hidden ? null : d.textContent; })()"


@pytest.fixture
def report(run, project):
    """A real `report` of the adder fixture (two solutions, four tests) into project/out."""
    out = project / "out"
    code, _, _ = run("report", "--out", out, "-j", "1")
    assert code == 0
    return out


def _rows(grid: dict) -> list[list[str]]:
    return [[line[i:i + SLOT].strip().replace("-", "none") for i in range(0, len(line.rstrip()), SLOT)]
            for line in grid["rows"]]


def test_names_verdicts_and_a_linked_cell_in_a_real_browser(report):
    data = json.loads((report / "adder.json").read_text())
    with Browser() as browser:
        browser.open((report / "adder.html").as_uri() + "#cell-1-2")
        grid = browser.evaluate(GRID)
        detail = browser.evaluate(DETAIL)
    names = [t["name"] for t in data["solutions"][0]["tests"]]
    assert [n["title"] for n in grid["names"]] == names  # the whole name on hover
    assert [n["text"] for n in grid["names"]] == [short_name(name) for name in names]
    assert all(n["box"]["width"] > 0 and n["box"]["height"] > 0 for n in grid["names"])  # shown, not clipped away
    assert _rows(grid) == [[t["verdict"] or "none" for t in s["tests"]] for s in data["solutions"]]
    # The page's script ran: the cell named in the address is open, its details filled in.
    assert detail and "overflows_32_bits.py on test big: WA" in detail and "returned2112827392" in detail


def test_a_300_by_70_grid_keeps_its_header_and_solutions_in_place_and_its_slots_under_their_names(project):
    results = big_results(project, tests=300, solutions=70)
    page = [p for p in write_report(project / "out", "adder", results, []) if p.suffix == ".html"][0]
    with Browser(1400, 900) as browser:
        browser.open(page.as_uri())
        before = browser.evaluate(GRID)
        assert _rows(before) == [[str(t.verdict) if t.verdict else "none" for t in r.tests] for r in results]
        assert [n["title"] for n in before["names"]] == [t.name for t in results[0].tests]
        # Each name stands above its own slot (checked at the start, middle and end of the row).
        for t in (0, 150, 299):
            slot = browser.evaluate(f"{SLOT_BOX}(0, {t}, {SLOT})")
            name = before["names"][t]["box"]
            middle = name["left"] + name["width"] / 2
            assert slot["left"] <= middle <= slot["left"] + slot["width"], (t, name, slot)
        # Scrolled down and right, inside its box: the names and the solution column stay in place.
        browser.evaluate("(() => { const b = document.getElementById('scroll'); b.scrollIntoView();"
                         " b.scrollTop = 900; b.scrollLeft = 4000; })()")
        after = browser.evaluate(GRID)
        assert after["header"]["top"] == pytest.approx(after["box"]["top"] + 1, abs=1)  # its border aside
        assert after["corner"]["left"] == pytest.approx(after["box"]["left"] + 1, abs=1)
        assert after["strip"]["top"] - after["box"]["top"] < before["strip"]["top"] - before["box"]["top"] - 800
        assert after["strip"]["left"] < before["strip"]["left"] - 3900  # the rows did scroll
        # A click lands on the slot under the pointer: row 45, test 150, now scrolled into view.
        slot = browser.evaluate(f"{SLOT_BOX}(45, 150, {SLOT})")
        for kind in ("mousePressed", "mouseReleased"):
            browser.send("Input.dispatchMouseEvent", {"type": kind, "x": slot["left"] + slot["width"] / 2,
                                                      "y": slot["top"] + slot["height"] / 2, "button": "left",
                                                      "clickCount": 1})
        detail = browser.evaluate(DETAIL)
        expected = results[45].tests[150]
        assert f"/solution_45.py on test {expected.name}: {expected.verdict}" in detail.split("arguments")[0], detail


def test_chart_labels_stay_apart_as_the_browser_draws_them(report):
    with Browser() as browser:
        browser.open((report / "adder.html").as_uri())
        boxes = browser.evaluate("[...document.querySelectorAll('#spread svg text')].map(t => "
                                 "{ const b = t.getBBox(); return [b.x, b.x + b.width, t.textContent]; })")
    boxes.sort()
    assert any(text == "500 ms limit" for *_, text in boxes)
    assert all(a[1] + 2 <= b[0] for a, b in zip(boxes, boxes[1:])), boxes


@pytest.mark.skipif(axe_missing() is not None, reason=str(axe_missing()))
def test_axe_finds_no_accessibility_violation_on_the_pages(report, project):
    """The adder report, the index and a 300 x 70 page. axe leaves one thing undecided: the contrast of
    text on a gradient (the grid's rows) and of SVG text (the chart's labels); test_reports.py checks
    the grid's palette, and the labels are #444 and #b00020 on white (9.7:1 and 6.9:1)."""
    big = [p for p in write_report(project / "big", "adder", big_results(project), []) if p.suffix == ".html"][0]
    found = {}
    with Browser() as browser:
        for page in (report / "adder.html", report / "index.html", big):
            browser.open(page.as_uri())
            found[page.name if page.parent != project / "big" else "300 x 70"] = browser.axe()
    assert {page: f["violations"] for page, f in found.items()} == {"adder.html": [], "index.html": [], "300 x 70": []}
    undecided = {(i["id"], where) for f in found.values() for i in f["incomplete"] for where in i["where"]}
    assert undecided <= {("color-contrast", "td.strip"), ("color-contrast", "text"), ("color-contrast", "text.limit")}, \
        json.dumps(found, indent=1)
