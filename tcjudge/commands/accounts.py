"""`judge accounts`: make a contest's accounts with random passwords: DIR/accounts.csv
(`team,username,password`), DIR/coach.csv and printable slips (DIR/slips.html)."""

from __future__ import annotations

import argparse
import sqlite3
from pathlib import Path

from ..errors import JudgeInputError
from .common import EXIT_OK, make_folder, positive

HELP = "make a contest's accounts: random passwords, a CSV and printable slips"
ORDER = 21  # its place in --help


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("contest", type=Path, metavar="CONTEST.yaml", help="the contest file")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--count", type=positive, metavar="N", help="N teams, named team001 to teamN")
    which.add_argument("--teams", type=Path, metavar="CSV", help="a CSV with a `team` column (and optionally `username`)")
    parser.add_argument("--out", type=Path, default=Path("accounts"), metavar="DIR",
                        help="where to write accounts.csv, coach.csv and slips.html (default: ./accounts)")
    parser.add_argument("--store", type=Path, metavar="FILE",
                        help="the contest's store (default: reports/contest-<id>.sqlite beside the history)")
    parser.add_argument("--coach", action="store_true",
                        help="give the coach a new password too (by default only the first run makes the coach's "
                             "account: adding a team leaves the coach's password and sessions alone)")
    parser.add_argument("--url", help="the address printed on the slips (default: where judge serve last listened "
                        "for this contest, else its default, http://127.0.0.1:8000/)")


def run(options) -> int:
    try:
        import argon2  # noqa: F401 - the serve extra
    except ImportError:
        raise JudgeInputError("judge accounts needs the serve extra: pip install 'topcoder-judge[serve]'") from None
    from ..serve.accounts import make_accounts, read_teams, slips_url, write_accounts
    from ..serve.contest import load_contest, store_path
    from ..serve.store import contest_store

    contest = load_contest(options.contest)
    teams = read_teams(options.teams) if options.teams else [(f"team{n:03}", None) for n in range(1, options.count + 1)]
    make_folder(options.out)
    store = contest_store(store_path(options.store, options.history, contest), contest.path, options.store is not None)
    try:
        made = make_accounts(store, teams, coach=True if options.coach else None)
        url = slips_url(store, options.url)
    except sqlite3.OperationalError as err:  # (breaker 56f: a store held 45 s by another program: a traceback)
        if "locked" not in str(err):
            raise
        raise JudgeInputError(f"the contest's store was busy for 30 s (another program holds it: {err}): nothing "
                              "was written; try again", store.path) from None
    finally:
        store.close()
    for path in write_accounts(options.out, contest, made, url):
        print(f"wrote {path}")
    coach = any(username == "coach" for _, username, _ in made)
    if not coach:
        print("the coach's password is as it was (--coach gives it a new one)")
    print(f"{len(made) - coach} team account(s)" + (" and the coach's" if coach else "") + f" in {store.path}")
    return EXIT_OK
