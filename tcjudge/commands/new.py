"""`judge new`: start a problem folder: problem.yaml, statement, examples, reference stub, generator and verify.py skeletons."""

from __future__ import annotations

import argparse

from ..problems.catalog import display_path
from .common import EXIT_OK

HELP = ('start a problem folder: problem.yaml, statement, examples, reference stub, generator and '
        'verify.py skeletons')
ORDER = 10  # its place in --help


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("slug", metavar="SLUG", help="the folder name: lower-case letters, digits and hyphens")
    parser.add_argument("--class", required=True, dest="class_name", metavar="NAME", help="the class solutions define")
    parser.add_argument("--method", required=True, metavar="NAME", help="the method the judge calls")
    parser.add_argument("--signature", required=True, metavar="SIG",
                     help='parameters and return type, e.g. "int[] a, String s -> int"')


def run(options) -> int:
    from ..setter.new import create_problem

    for path in create_problem(options.problems, options.solutions, options.slug, options.class_name,
                               options.method, options.signature):
        print(f"wrote {display_path(path)}")
    print(f"next: write the statement, the examples and the reference, then run: {options.prog} validate "
          f"{options.slug}")
    return EXIT_OK
