"""`judge init`: make an empty project folder: problems/, solutions/, a README."""

from __future__ import annotations

import argparse
from pathlib import Path

from .common import EXIT_OK

HELP = "make an empty project folder: problems/, solutions/, a README"
ORDER = 11  # its place in --help


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folder", nargs="?", type=Path, default=Path("."), metavar="DIR",
                      help="the project folder (default: the current folder)")
    parser.add_argument("--contest", action="store_true",
                        help="instead, write DIR/contest.yaml for `judge serve`, naming every problem of --problems")


def run(options) -> int:
    from ..setter.init import init_contest, init_project

    if options.contest:
        print(f"wrote {init_contest(options.folder, options.problems)}")
        print(f"next: {options.prog} accounts {options.folder / 'contest.yaml'} --count N")
        return EXIT_OK

    for path in init_project(options.folder):
        print(f"wrote {path}")
    where = "" if options.folder == Path(".") else f"cd {options.folder} && "
    print(f"next: {where}{options.prog} new SLUG --class NAME --method NAME --signature SIG")
    return EXIT_OK
