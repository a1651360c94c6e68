"""`judge generate`: run problems' generator.py with the judge's own interpreter and write their tests."""

from __future__ import annotations

import argparse

from .. import languages
from ..problems.catalog import Catalog
from .common import EXIT_FAILED, EXIT_OK

HELP = "run a problem's generator.py with the judge's own Python and write the test files it makes"
ORDER = 6.5  # its place in --help: after validate, which asks for it


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("slugs", nargs="*", metavar="SLUG", help="only these problems (default: every one with a "
                                                                  "generator.py)")


def run(options) -> int:
    from ..setter.generate import GENERATOR

    catalog = Catalog(options.problems, options.solutions, languages.EXTENSIONS)
    slugs = options.slugs or [slug for slug in catalog.slugs() if (catalog.problems_dir / slug / GENERATOR).is_file()]
    return EXIT_OK if generate_all(catalog, slugs) else EXIT_FAILED


def generate_all(catalog: Catalog, slugs: list[str]) -> bool:
    """Generate each problem's tests, printing a line for each; whether every generator succeeded."""
    from ..setter.generate import generate_lines

    ok = True
    for slug in slugs:
        succeeded, lines = generate_lines(catalog, slug)
        print("\n".join(lines), flush=True)
        ok &= succeeded
    return ok
