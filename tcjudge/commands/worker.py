"""`judge worker`: start a Dask worker for --cluster grading: one thread per process, one process per core (docs/cluster.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .common import positive

HELP = ('start a Dask worker for --cluster grading: one thread per process, one process per core '
        '(docs/cluster.md)')
ORDER = 12  # its place in --help


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("address", metavar="SCHEDULER", help="the scheduler's address, e.g. tcp://10.0.0.1:8786")
    parser.add_argument("--processes", type=positive, metavar="N", help="worker processes (default: one per core)")
    parser.add_argument("--scratch", type=Path, metavar="DIR",
                        help="where its scratch folder goes (default: the system's temp folder); removed at exit")


def run(options) -> int:
    from ..cluster.worker_command import serve_worker

    return serve_worker(options.address, options.processes, options.scratch)
