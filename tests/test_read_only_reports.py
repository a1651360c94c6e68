"""A read-only reports/ folder (issue 45): a command that would record its run there, or write its
files, is refused before anything is graded, in one line that names the folder and says read-only
(before, `check --fresh` graded everything, then failed at the record with no table); `judge
history` reads a read-only history, one written by an older judge too.

Root's writes ignore file modes, so as root the judge sees the folder through a read-only bind mount
in a mount namespace of its own (unshare), else with the immutable flag (chattr +i); an unprivileged
user through the folder's modes.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

from .conftest import stored_fixture

JUDGE = Path(__file__).resolve().parents[1] / "judge.py"
# a command's words, in a mount namespace where the folder ($0) is a read-only bind mount of itself
READ_ONLY_MOUNT = 'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" "$0" && exec "$@"'


def _judge(project: Path, prefix: list[str]):
    return lambda *args: subprocess.run([*prefix, sys.executable, str(JUDGE), *args], cwd=project,
                                        capture_output=True, text=True, timeout=300)


@contextmanager
def read_only(folder: Path):
    """A runner of the judge (in the folder's parent) that may not write `folder` or its files."""
    files = [folder, *folder.iterdir()]
    if os.geteuid() != 0:
        modes = {path: path.stat().st_mode for path in files}
        for path in files:
            path.chmod(modes[path] & ~0o222)
        try:
            yield _judge(folder.parent, [])
        finally:
            for path in files:
                path.chmod(modes[path])
        return
    mount = ["unshare", "--mount", "sh", "-c", READ_ONLY_MOUNT, str(folder)]
    if shutil.which("unshare") and subprocess.run([*mount, "sh", "-c", '! touch "$0/probe"', str(folder)],
                                                  capture_output=True).returncode == 0:
        yield _judge(folder.parent, mount)
        return
    if shutil.which("chattr") and subprocess.run(["chattr", "+i", *map(str, files)], capture_output=True).returncode == 0:
        try:
            yield _judge(folder.parent, [])
        finally:
            subprocess.run(["chattr", "-i", *map(str, files)], check=True)
        return
    pytest.skip("root here can neither mount a folder read-only (unshare --mount) nor make it immutable (chattr +i)")


def _project(tmp_path: Path) -> Path:
    """The adder problem with two stored solutions, checked once: reports/ holds its history."""
    stored_fixture(tmp_path, {"accepted": ["accepted.py"], "wrong_answer": ["wrong_answer.py"]})
    first = _judge(tmp_path, [])("check")
    assert first.returncode == 0, first.stdout + first.stderr
    return tmp_path / "reports"


@pytest.mark.parametrize("command", [["check", "--fresh"], ["report"], ["grade", "solutions/adder/accepted/0_accepted.py"]])
def test_a_read_only_reports_folder_is_refused_before_any_grading(tmp_path, command):
    reports = _project(tmp_path)
    with read_only(reports) as judge:
        run = judge(*command)
    assert run.returncode == 2, run.stdout + run.stderr
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("judge: error: reports: read-only folder: "), run.stderr
    assert run.stdout == "", run.stdout  # nothing graded: not even check's header


def test_a_read_only_folder_for_the_json_is_refused_before_any_grading(tmp_path):
    _project(tmp_path)
    (tmp_path / "out").mkdir()
    with read_only(tmp_path / "out") as judge:
        run = judge("check", "--json", "out/check.json")
    assert run.returncode == 2 and run.stdout == "", run.stdout + run.stderr
    assert run.stderr.startswith("judge: error: out: read-only folder: the JSON (out/check.json)"), run.stderr


@pytest.mark.parametrize("written_by", ["this judge", "an older judge"])
def test_judge_history_reads_a_read_only_history(tmp_path, written_by):
    reports = _project(tmp_path)
    if written_by == "an older judge":  # before the columns added since the first schema
        with sqlite3.connect(reports / "history.sqlite") as db:
            for table, column in (("results", "score"), ("tests", "score"), ("results", "machine")):
                db.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        db.close()
    with read_only(reports) as judge:
        runs, adder = judge("history"), judge("history", "adder")
    assert runs.returncode == 0 and "check" in runs.stdout and "complete" in runs.stdout, runs.stdout + runs.stderr
    assert adder.returncode == 0, adder.stdout + adder.stderr
    assert "solutions/adder/accepted/0_accepted.py" in adder.stdout and "WA" in adder.stdout, adder.stdout


# a command's words, in a mount namespace where the folder ($0) is a 1 MiB tmpfs holding its files ($1)
SMALL_DISK = ('cp -a "$0/." "$1" && mount -t tmpfs -o size=1m tmpfs "$0" && cp -a "$1/." "$0" && shift 2 && '
              'exec "$@"')


def test_a_full_disk_is_refused_before_any_grading(tmp_path):
    """issue 45 (an outside tester): with reports/ on a full disk, `check --fresh` graded every
    solution, then ended at the record ('disk I/O error'), or with 36 KiB free printed a traceback
    ('database or disk is full') and wrote no JSON. Under 4 MiB free it is refused first, in one line."""
    reports = _project(tmp_path)
    if os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.skip("a small disk of its own needs root here (unshare --mount, mount -t tmpfs)")
    saved = tmp_path / "saved"
    saved.mkdir()
    run = _judge(tmp_path, ["unshare", "--mount", "sh", "-c", SMALL_DISK, str(reports), str(saved), "--"])("check", "--fresh")
    assert run.returncode == 2, run.stdout + run.stderr
    assert run.stderr.startswith("judge: error: reports: disk full: ") and "nothing was graded" in run.stderr, run.stderr
    assert run.stdout == "", run.stdout


def test_a_run_that_cannot_be_recorded_is_shown_and_said_not_kept(judge, tmp_path, monkeypatch):
    """The disk filled while the tests ran: the table and the JSON are still written, and one line says
    the run is not kept (before: a traceback, exit 1, no JSON)."""
    from tcjudge.reports.history import History

    problems, solutions = stored_fixture(tmp_path, {"accepted": ["accepted.py"], "wrong_answer": ["wrong_answer.py"]})

    def full(*_args, **_kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(History, "_write_run", full)
    code, out, err = judge("--problems", problems, "--solutions", solutions, "check", "--json", tmp_path / "check.json")
    assert code == 0, out + err
    assert "the run is not recorded: database or disk is full (the results below are not kept)" in err, err
    assert "Traceback" not in err and "2 of 2 solutions got their expected verdict" in out, out
    written = json.loads((tmp_path / "check.json").read_text())
    assert written["run"] is None and len(written["solutions"]) == 2


def test_a_json_that_does_not_fit_leaves_no_truncated_file(tmp_path, monkeypatch):
    """An outside tester's --json on a disk that filled: the judge said 'No space left on device' and
    left a truncated 32 KiB file a tool would read as a result. Now nothing is left at the path."""
    import errno

    from tcjudge.commands import common
    from tcjudge.errors import JudgeInputError

    target = tmp_path / "run.json"
    real_write = Path.write_text

    def fills(path, text, *args, **kwargs):
        real_write(path, text[:100], *args, **kwargs)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_text", fills)
    with pytest.raises(JudgeInputError, match="No space left on device"):
        common.save_json(target, {"solutions": []})
    assert not target.exists() and list(tmp_path.iterdir()) == []
