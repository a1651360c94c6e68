"""`judge doctor`: show which isolation layers this machine provides."""

from __future__ import annotations

import argparse
import os

from .. import languages
from ..engine.isolation import all_layers, doctor_report, probed_layers_warning
from ..errors import JudgeInputError
from .common import EXIT_FAILED, EXIT_OK

HELP = "show which isolation layers this machine provides"
ORDER = 5  # its place in --help


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cluster", nargs="?", const="", metavar="ADDRESS",
                        help="show every worker of this Dask cluster instead (default address: $JUDGE_CLUSTER)")


def run(options) -> int:
    if options.cluster is not None:
        address = options.cluster or os.environ.get("JUDGE_CLUSTER")
        if not address:
            raise JudgeInputError("--cluster needs an ADDRESS (or JUDGE_CLUSTER set)")
        from ..cluster.client import cluster_doctor
        report, complete = cluster_doctor(address)
        print(report)
        return EXIT_OK if complete else EXIT_FAILED
    layers = all_layers()  # one probe for the table and the warning: a second could differ from the first
    report, complete = doctor_report(layers)
    print(report)
    print()
    print(languages.doctor_table())
    warning = probed_layers_warning(layers=layers)
    if warning:
        print(warning)
    return EXIT_OK if complete else EXIT_FAILED
