"""`judge statement`: a problem's statement and its examples in the terminal (an interactive or
multi-pass package's samples as the dialogue of their .interaction files)."""

from __future__ import annotations

import argparse

from .. import languages
from ..problems.catalog import Catalog
from ..reports.statement import statement_text
from .common import EXIT_OK

HELP = "a problem's statement and its examples (interactive samples as a dialogue)"
ORDER = 13  # its place in --help


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("slug", metavar="SLUG", help="the problem")


def run(options) -> int:
    catalog = Catalog(options.problems, options.solutions, languages.EXTENSIONS)
    print(statement_text(catalog.problem(options.slug)))
    return EXIT_OK
