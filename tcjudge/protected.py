"""The folders no compiler may read: the judge's own code, its cache and each project's folders.

Every command names its project's folders here as it starts (project.complete), and the confined
compile reads the list (languages/build.py); nothing here imports anything of the judge but the cache
folder, so that naming them costs a command's start nothing.
"""

from __future__ import annotations

import os
from pathlib import Path

from .cachedir import cache_root

PACKAGE = Path(__file__).resolve().parent
PROJECT_ROOT = PACKAGE.parent

_judge_folders = {str(PACKAGE)} | ({str(PROJECT_ROOT)} if (PROJECT_ROOT / "judge.py").is_file() else set())


def protect(*paths) -> None:
    """Folders (or files) of the judge's that no compiler may read, from now on in this process (never
    `/` itself: a problem folder right under it does not make the whole machine the project's)."""
    _judge_folders.update(os.path.abspath(path) for path in paths if os.path.abspath(path) != "/")


def project_folders(problem_folder: Path) -> list[Path]:
    """A problem's project, as a project is laid out: its problems folder and the solutions and
    reports (with the history) beside it."""
    problems = Path(problem_folder).parent
    return [Path(problem_folder), problems, problems.parent / "solutions", problems.parent / "reports"]


def protect_project(problem_folder: Path) -> None:
    """No compiler may read the problem's project (project_folders)."""
    protect(*project_folders(problem_folder))


def judge_folders() -> list[str]:
    """What the compiler's Landlock rules must never reach: the package (and the checkout it is run
    from), the build cache (other solutions), and every folder given to protect()."""
    return sorted(_judge_folders | {str(cache_root())})
