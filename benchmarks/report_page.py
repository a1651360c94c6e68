#!/usr/bin/env python3
"""How long a report page as large as a coach's (300 tests x 70 solutions) takes to open in a real
browser: Debian's chromium, headless, a fresh profile each time.

Writes the page with the report's own code (synthetic results: tests/browser.big_results), opens it
--repeat times and prints, per opening, the milliseconds from the start of navigation to: the first
contentful paint, the load event (HTML parsed, styles applied, the page's script run), and the
second animation frame after the load event (the grid laid out and painted). The figure the issue
asks for, "opens in under a second", is the last one. On a busy machine it mostly measures the
wait for a core, so each line also gives the renderer's main thread CPU time for the page (parse,
style, layout, script: chromium's Performance.getMetrics in thread time). Optionally runs axe-core
on the page (--axe).
Run: python benchmarks/report_page.py [--tests 300] [--solutions 70] [--repeat 5] [--axe] [--keep DIR]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tcjudge.reports.tables import write_report  # noqa: E402
from tests.browser import Browser, axe_missing, big_results, missing  # noqa: E402
from tests.conftest import FIXTURE_PROBLEMS, TESTDATA  # noqa: E402

# After the load event, two animation frames: the first is scheduled once layout is due, the second
# starts after the first frame was produced.
PAINTED = "new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now()))))"
TIMINGS = ("(() => { const n = performance.getEntriesByType('navigation')[0];"
           " const p = performance.getEntriesByName('first-contentful-paint')[0];"
           " return {load: n.loadEventEnd, dom: n.domContentLoadedEventEnd, fcp: p ? p.startTime : null}; })()")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", type=int, default=300)
    parser.add_argument("--solutions", type=int, default=70)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--axe", action="store_true", help="also run axe-core on the page")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="write the page to DIR (else a temp folder)")
    options = parser.parse_args()
    if missing():
        print(f"report_page: {missing()}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        project = Path(scratch)
        shutil.copytree(FIXTURE_PROBLEMS / "adder", project / "problems" / "adder")
        shutil.copytree(TESTDATA / "stored", project / "solutions")
        out = options.keep or project / "out"
        results = big_results(project, options.tests, options.solutions)
        started = time.perf_counter()
        page = [p for p in write_report(out, "adder", results, []) if p.suffix == ".html"][0]
        written = time.perf_counter() - started
        print(f"{options.tests} tests x {options.solutions} solutions: {page.stat().st_size / 1e6:.2f} MB of HTML, "
              f"written in {written:.2f} s")
        painted, busy = [], []
        for _ in range(options.repeat):
            with Browser() as browser:
                browser.send("Performance.enable", {"timeDomain": "threadTicks"})
                browser.open(page.as_uri())
                frame = browser.evaluate(PAINTED)
                timings = browser.evaluate(TIMINGS)
                metrics = {m["name"]: m["value"] * 1000 for m in browser.send("Performance.getMetrics")["metrics"]}
                painted.append(frame)
                busy.append(metrics["TaskDuration"])
                print(f"  first paint {timings['fcp']:.0f} ms, load event {timings['load']:.0f} ms, "
                      f"laid out and painted {frame:.0f} ms; main thread CPU {metrics['TaskDuration']:.0f} ms "
                      f"(layout {metrics['LayoutDuration']:.0f}, style {metrics['RecalcStyleDuration']:.0f}, "
                      f"script {metrics['ScriptDuration']:.0f})")
                if options.axe:
                    if axe_missing():
                        print(f"  axe: {axe_missing()}")
                    else:
                        started = time.perf_counter()
                        found = browser.axe()
                        print(f"  axe-core {found['version']}: {len(found['violations'])} violation(s) in "
                              f"{time.perf_counter() - started:.1f} s"
                              + "".join(f"\n    {v['id']} ({v['impact']}, {v['nodes']} nodes): {v['help']}"
                                        for v in found["violations"])
                              + "".join(f"\n    undecided: {v['id']} on {', '.join(v['where'])}: {'; '.join(v['why'])}"
                                        for v in found["incomplete"]))
                    options.axe = False  # once is enough
        print(f"laid out and painted: median {statistics.median(painted):.0f} ms, max {max(painted):.0f} ms; "
              f"main thread CPU: median {statistics.median(busy):.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
