"""Where a project's folders are. Any folder is a project: problems/, solutions/ and reports/ (with
the run history) sit side by side, found from the current folder or beside `--problems`, never
inside the installed package. `judge init` makes such a folder.
"""

from __future__ import annotations

from pathlib import Path

from .protected import PROJECT_ROOT, protect

CHECKOUT = PROJECT_ROOT  # the judge's own checkout, when it runs from one


def default_problems() -> Path:
    """./problems; from the judge's own checkout run elsewhere (`python ~/judge/judge.py check`), the
    checkout's problems, which were always its default. An installed judge has no such fallback."""
    here = Path("problems")
    if here.is_dir() or not (CHECKOUT / "judge.py").is_file() or not (CHECKOUT / "problems").is_dir():
        return here
    return CHECKOUT / "problems"


def complete(options) -> None:
    """Fill the folders the command line left out, beside the problems folder."""
    if options.problems is None:
        options.problems = default_problems()
    root = options.problems.parent
    if options.solutions is None:
        options.solutions = root / "solutions"
    if options.history is None:
        options.history = root / "reports" / "history.sqlite"
    if getattr(options, "out", False) is None:
        options.out = root / "reports"
    protect(*(folder for folder in (options.problems, options.solutions, options.history, getattr(options, "out", None))
              if folder is not None))  # no compiler reads them, wherever they are (docs/security.md)
