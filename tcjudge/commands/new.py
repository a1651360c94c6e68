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

    written = create_problem(options.problems, options.solutions, options.slug, options.class_name,
                             options.method, options.signature)
    for path in written:
        print(f"wrote {display_path(path)}")
    print("next, fill in what validate checks:")
    width = max(len(display_path(path)) for path in written)
    for path in written:
        print(f"  {display_path(path):<{width}}  {TO_WRITE[path.name]}")
    print(f"then run: {options.prog} generate {options.slug} && {options.prog} validate {options.slug}")
    return EXIT_OK


# What the setter writes in each file `new` makes, as validate will ask for it.
TO_WRITE = {
    "problem.yaml": "the signature, limits and constraints (filled in from the options; check the constraints)",
    "statement.md": "the statement, with each example's arguments and expected value as the examples give them",
    "examples.yaml": "the statement's examples as tests, in the statement's order",
    "generator.py": "your own tests (edge cases, random ones): `generate` runs it and writes tests/*.yaml",
    "verify.py": "a second solution written apart from the reference; validate proves both agree on every test",
    "reference.py": "the reference solution: its answers become the expected values",
}
