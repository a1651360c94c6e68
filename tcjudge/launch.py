"""The command line's entry point (`judge`, judge.py): for `grade`, the first zygote is started before
the command line itself is imported and parsed.

A zygote takes 35-40 ms to be ready (a fresh interpreter and the kernel layers), the judge as long to
read the problem and reach its first test; started only once `grade` has parsed its options, the
zygote was the later of the two. Which command runs is guessed here from the words alone (argparse
is not imported yet): a wrong guess costs one unused zygote, ended at exit, and never changes what
the command does.
"""

from __future__ import annotations

import os
import sys

# global options that take a value (tcjudge.cli._global_options): their value is not the command
VALUED_OPTIONS = ("--problems", "--solutions", "--history", "--source-limit")


def starts_a_grading(argv: list[str]) -> bool:
    """Whether `argv` names `grade` on this machine: its first word that is not a global option (or an
    option's value) is "grade", and nothing asks for help or a cluster."""
    if os.environ.get("JUDGE_CLUSTER"):
        return False
    words = iter(argv)
    for word in words:
        if word in VALUED_OPTIONS:
            next(words, None)
        elif not word.startswith(VALUED_OPTIONS):
            return word == "grade" and not any(w == "-h" or w.startswith(("--he", "--cluster")) for w in argv)
    return False


# The judge's own dependencies (pyproject's `dependencies`) by the name they are imported as.
DEPENDENCIES = {"yaml": "pyyaml", "tabulate": "tabulate", "psutil": "psutil", "rich": "rich", "jinja2": "jinja2"}


def run() -> None:
    """`tcjudge.cli.run`, with grade's first zygote already starting. A Python without the judge's
    dependencies (`python3 judge.py` in a checkout, outside its venv) gets one line, not a traceback."""
    try:
        _run()
    except ModuleNotFoundError as err:
        missing = DEPENDENCIES.get((err.name or "").partition(".")[0])
        if missing is None:
            raise
        print(f"judge: error: this Python ({sys.executable}) has no {missing}, which the judge needs: run the judge "
              "installed (pip install the judge's folder, or the README's first command: .venv/bin/judge), or "
              "pip install -r requirements.txt for this Python", file=sys.stderr)
        sys.exit(2)


def _run() -> None:
    spares = None
    if starts_a_grading(sys.argv[1:]):
        from .engine.spares import Spares

        spares = Spares()
        spares.start(1)
    from .cli import run as run_command_line

    run_command_line(spares)
