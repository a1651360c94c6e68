"""`judge serve`: a practice contest from a contest file: contestants' and coaches' pages in the
browser, verdicts live, the CLICS API under /api (docs/serve.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import JudgeInputError
from .common import add_cluster, add_jobs, at_least, positive, refuse_read_only

HELP = "run a practice contest: pages for contestants and coaches, the CLICS API"
ORDER = 20  # its place in --help


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("contest", type=Path, metavar="CONTEST.yaml", help="the contest file")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1; "
                        "elsewhere, put a reverse proxy with TLS in front)")
    parser.add_argument("--port", type=int, default=8000, help="the port (default: 8000; 0: any free one)")
    parser.add_argument("--store", type=Path, metavar="FILE",
                        help="the contest's store (default: reports/contest-<id>.sqlite beside the history)")
    parser.add_argument("--connections", type=positive, metavar="N",
                        help="the most connections open at once (default: 1000, fewer where the open-file limit "
                        "leaves less room); past them, the longest idle one is closed for a new one")
    parser.add_argument("--connections-per-address", type=positive, metavar="N",
                        help="the most connections open at once from one address (default: half of "
                        "--connections; behind a reverse proxy every client is the proxy's address)")
    parser.add_argument("--header-timeout", type=at_least(0, inclusive=False), metavar="SECONDS",
                        help="seconds a request's headers may take to arrive, and its body after them (and a "
                        "second more per KiB of it) (default: 20)")
    parser.add_argument("--forwarded-allow-ips", metavar="IPS",
                        help="believe X-Forwarded-For and X-Forwarded-Proto from these addresses (a reverse "
                        "proxy's, comma-separated; default: from none)")
    add_jobs(parser)
    add_cluster(parser)


def run(options) -> int:
    try:
        import argon2  # noqa: F401
        import sse_starlette  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as err:
        raise JudgeInputError(f"judge serve needs the serve extra ({err.name} is missing): "
                              "pip install 'topcoder-judge[serve]'") from None
    refuse_read_only(options)
    from ..serve.server import serve

    return serve(options)
