"""Where a project's folders are. Any folder is a project: problems/, solutions/ and reports/ (with
the run history) sit side by side, found from the current folder or beside `--problems`, never
inside the installed package. `judge init` makes such a folder.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import JudgeInputError
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


def name_problems(options) -> None:
    """A problem named by its folder's path (`check problems/roxor`, as a shell completes it) is named
    by its folder's name when the folder is in the problems folder; a problem folder elsewhere is an
    error that says which --problems holds it."""
    for key in ("slugs", "slug", "problem"):
        written = getattr(options, key, None)
        if isinstance(written, list):
            setattr(options, key, [_problem_name(item, options.problems) for item in written])
        elif isinstance(written, str):
            setattr(options, key, _problem_name(written, options.problems))


def _problem_name(written: str, problems: Path) -> str:
    if "/" not in written and os.sep not in written:
        return written
    folder = Path(os.path.abspath(written))
    if folder.parent == Path(os.path.abspath(problems)) or folder.parent.resolve() == problems.resolve():
        return folder.name
    if (folder / "problem.yaml").is_file():
        raise JudgeInputError(f"{written}: this problem is not in the problems folder ({problems}); "
                              f"name it with --problems {folder.parent} {folder.name}")
    return written
