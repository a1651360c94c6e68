"""`judge history`: recorded runs, or one solution's or problem's verdicts over time."""

from __future__ import annotations

import argparse

from ..reports.history import History
from ..reports.tables import history_text
from .common import EXIT_OK, positive

HELP = "recorded runs, or one solution's or problem's verdicts over time"
ORDER = 4  # its place in --help


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", nargs="?", metavar="SOLUTION|SLUG",
                         help="a solution file or a problem (default: list the latest runs)")
    parser.add_argument("--limit", type=positive, default=20, metavar="N", help="show at most N rows (default: 20)")


def run(options) -> int:
    history = History(options.history, create=False)  # reading makes no file: a folder that is no project stays so
    try:
        print(history_text(history, options.target, options.limit))
    finally:
        history.close()
    return EXIT_OK
