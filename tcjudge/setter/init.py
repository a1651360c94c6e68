"""`judge init [DIR]`: an empty project folder someone can start from: problems/, solutions/ and a
README that says the next commands; reports/ (pages and the run history) are kept out of git."""

from __future__ import annotations

from pathlib import Path

from ..errors import JudgeInputError

README = """\
# Problems judged with topcoder-judge

- `problems/<slug>/`: one folder a problem (`judge new SLUG --class NAME --method NAME --signature SIG`
  starts one); `solutions/<slug>/<expected verdict>/`: stored solutions, checked by `judge check`.
- `reports/`: pages and the run history that `judge report` and `judge check` write (not committed).

Next:

    judge new my-problem --class MyProblem --method solve --signature "int[] a -> int"
    judge generate my-problem
    judge validate my-problem
    judge grade my_solution.py --problem my-problem
    judge check
    judge report
"""

FILES = {"README.md": README, ".gitignore": "/reports/\n"}
FOLDERS = ("problems", "solutions")


def init_project(folder: Path) -> list[Path]:
    """Write the project's skeleton into `folder` (made if missing); refuses to overwrite anything."""
    clashes = [folder / name for name in (*FOLDERS, *FILES) if (folder / name).exists()]
    if clashes:
        raise JudgeInputError(f"already there, not overwritten: {', '.join(p.name for p in clashes)}", folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name in FOLDERS:
            (folder / name).mkdir()
        for name, text in FILES.items():
            (folder / name).write_text(text, encoding="utf-8")
    except OSError as err:
        raise JudgeInputError(f"cannot write the project: {err.strerror}", folder) from None
    return [folder / name for name in (*FOLDERS, *FILES)]


CONTEST = """\
# A practice contest for `judge serve` (docs/serve.md lists every key).
name: {name}
problems: [{problems}]    # slugs under problems/, or paths to Kattis packages
start: now                # or an ISO 8601 time, e.g. 2026-03-01T10:00:00+01:00
duration: 2h
freeze: 30m
scoring: icpc             # or ioi
"""


def init_contest(folder: Path, problems_dir: Path) -> Path:
    """Write `folder`/contest.yaml naming every problem of `problems_dir`; refuses to overwrite it."""
    path = folder / "contest.yaml"
    if path.exists():
        raise JudgeInputError("already there, not overwritten", path)
    slugs = sorted(p.name for p in problems_dir.iterdir() if (p / "problem.yaml").is_file()) \
        if problems_dir.is_dir() else []
    if not slugs:
        raise JudgeInputError("no problems to hold a contest on (judge new SLUG makes one)", problems_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(CONTEST.format(name="Practice 1", problems=", ".join(slugs)), encoding="utf-8")
    except OSError as err:
        raise JudgeInputError(f"cannot write: {err.strerror}", path) from None
    return path
