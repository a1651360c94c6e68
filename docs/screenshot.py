#!/usr/bin/env python3
"""The screenshots of the report pages in docs/usage.md, taken in headless chromium (tests/browser.py).

    python docs/screenshot.py reports/roxor.html docs/report-grid.png --at grid --hash cell-6-0
    python docs/screenshot.py reports/index.html docs/report-index.png --height 520

--at grid scrolls the window to the verdict grid first; --hash opens the page at #... (a cell).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser import Browser, missing  # noqa: E402

FRAME = "new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page", type=Path)
    parser.add_argument("png", type=Path)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=800)
    parser.add_argument("--at", choices=["top", "grid"], default="top")
    parser.add_argument("--hash", default="")
    options = parser.parse_args()
    if missing():
        print(f"screenshot: {missing()}", file=sys.stderr)
        return 2
    with Browser(options.width, options.height) as browser:
        browser.open(options.page.resolve().as_uri() + (f"#{options.hash}" if options.hash else ""))
        if options.at == "grid":
            browser.evaluate("window.scrollTo(0, document.getElementById('scroll').getBoundingClientRect().top"
                             " + window.scrollY - 150)")
        browser.evaluate(FRAME)
        browser.screenshot(options.png)
    print(f"wrote {options.png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
