"""What `judge accounts` and `judge serve` keep and write (issue 47): each contest file's own store, the
slips' address and the coach's CSV, and a package's computed time limit kept across restarts."""

from __future__ import annotations

import csv
import re
import shutil
import signal
import subprocess
import sys
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

from tcjudge.cli import main  # noqa: E402
from tcjudge.serve.contest import load_contest  # noqa: E402
from tcjudge.serve.scoreboard import Clock  # noqa: E402
from tcjudge.serve.store import Store, contest_store  # noqa: E402

from .conftest import FIXTURE_PROBLEMS, ROOT, TESTDATA  # noqa: E402

CONTEST = "name: {name}\nproblems: [{problems}]\nstart: now\nduration: 2h\n"
WAIT = 600  # seconds a server may take to start on a busy machine (a package timed first): never the point


def contest_file(folder, name: str = "Practice", problems: str = "adder"):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "contest.yaml"
    path.write_text(CONTEST.format(name=name, problems=problems))
    return path


def accounts(tmp_path, contest, *more: str) -> int:
    return main(["--problems", str(FIXTURE_PROBLEMS), "--history", str(tmp_path / "reports" / "history.sqlite"),
                 "accounts", str(contest), "--out", str(contest.parent / "accounts"), *more])


def test_two_contest_files_of_one_name_each_get_a_store_of_their_own(tmp_path, capsys):
    week1, week2 = contest_file(tmp_path / "week1", "Week 1"), contest_file(tmp_path / "week2", "Week 2")
    assert accounts(tmp_path, week1, "--count", "2") == 0
    first = re.search(r"in (\S+)$", capsys.readouterr().out.strip()).group(1)
    assert first == str(tmp_path / "reports" / "contest-contest.sqlite")  # the documented name, for the first
    assert accounts(tmp_path, week2, "--count", "3") == 0
    out, err = capsys.readouterr()
    second = re.search(r"in (\S+)$", out.strip()).group(1)
    assert second != first and re.fullmatch(r".*/contest-contest-[0-9a-f]{8}\.sqlite", second)
    assert f"{first} is the store of another contest file" in err
    with Store(first) as store1, Store(second) as store2:
        Clock(load_contest(week1), store1)  # week 1 starts ("start: now" is fixed at the first start)
        assert store2.meta("start") is None  # before: week 2 opened with week 1's start, teams, submissions
        assert [len(store.rows("SELECT * FROM teams")) for store in (store1, store2)] == [2, 3]
    assert accounts(tmp_path, week1, "--count", "2") == 0  # and each finds its own again
    assert re.search(r"in (\S+)$", capsys.readouterr().out.strip()).group(1) == first


def test_a_store_from_before_stores_said_whose_they_are_is_kept_by_its_contest(tmp_path):
    week1, week2 = contest_file(tmp_path / "week1"), contest_file(tmp_path / "week2")
    plain = tmp_path / "reports" / "contest-contest.sqlite"
    with Store(plain) as old:  # (as judge accounts made it before)
        old.put_account("team001", "Red", "team", "hash")
    with contest_store(plain, week1) as store:
        assert store.path == plain and store.account("team001")["team_id"] is not None
    with contest_store(plain, week2) as store:
        assert store.path != plain and store.account("team001") is None


def serve_once(tmp_path, contest, *options: str) -> str:
    """`judge serve` started and stopped with Ctrl-C once it listens: what it printed."""
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        process = subprocess.Popen([sys.executable, str(ROOT / "judge.py"), "--problems", str(FIXTURE_PROBLEMS),
                                    "--history", str(tmp_path / "reports" / "history.sqlite"), "serve", str(contest),
                                    "--port", "0", "-j", "1", *options], stdout=out, stderr=subprocess.STDOUT,
                                   cwd=tmp_path)
    try:
        deadline = time.monotonic() + WAIT
        while "serving on" not in log.read_text():
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return log.read_text()


def test_the_slips_say_where_judge_serve_listens_and_the_coach_csv_has_no_team(tmp_path, capsys):
    contest = contest_file(tmp_path)
    assert accounts(tmp_path, contest, "--count", "2") == 0
    assert "the slips say http://127.0.0.1:8000/, where judge serve listens by default" in capsys.readouterr().err
    served = re.search(r"serving on (\S+)", serve_once(tmp_path, contest)).group(1)
    assert served != "http://127.0.0.1:8000/"  # (--port 0)
    assert accounts(tmp_path, contest, "--count", "2") == 0
    assert served in (contest.parent / "accounts" / "slips.html").read_text()  # before: 127.0.0.1:8000 always
    assert f"the slips say {served}, where judge serve last listened" in capsys.readouterr().err
    again = serve_once(tmp_path, contest)  # (another port)
    assert f"the slips of judge accounts say {served}, and this server listens on" in again
    assert accounts(tmp_path, contest, "--count", "2", "--url", "https://contest.example/") == 0
    assert "https://contest.example/" in (contest.parent / "accounts" / "slips.html").read_text()
    assert "slips say" not in capsys.readouterr().err and "slips of" not in serve_once(tmp_path, contest)
    coach = list(csv.reader((contest.parent / "accounts" / "coach.csv").open()))
    assert coach[0] == ["username", "password"] and coach[1][0] == "coach"  # before: an empty team column


def test_a_package_without_a_time_limit_is_timed_at_the_first_start_alone(tmp_path):
    shutil.copytree(TESTDATA / "kattis" / "digitsum", tmp_path / "digitsum")
    contest = contest_file(tmp_path, "Kept", "./digitsum")
    first = serve_once(tmp_path, contest)
    assert "Timing" in first and re.search(r"digitsum: time limit \S+ s \(computed", first)
    limit = re.search(r"digitsum: time limit (\S+) s", first).group(1)
    second = serve_once(tmp_path, contest)
    assert "Timing" not in second, second  # the limit is the contest's
    assert re.search(rf"digitsum: time limit {limit} s \(computed.*; this contest's since its first start\)", second), second
    (tmp_path / "reports" / "history.sqlite").unlink()  # (as an upgraded judge, or another machine: no kept limit)
    third = serve_once(tmp_path, contest)  # breaker 55b F2: timed again at a restart, 10 s became 9 s
    assert "Timing" not in third and f"digitsum: time limit {limit} s" in third, third
    secret = tmp_path / "digitsum" / "data" / "secret" / "small"
    shutil.copy(next(secret.glob("*.in")), secret / "zz-added.in")
    shutil.copy(next(secret.glob("*.ans")), secret / "zz-added.ans")
    changed = serve_once(tmp_path, contest)
    assert "its package changed since this contest computed its time limit" in changed and "Timing" in changed


def _descriptors_on(path) -> int:
    """How many of this process's descriptors are open on `path`."""
    import os

    count = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            count += os.readlink(f"/proc/self/fd/{fd}") == str(path)
        except OSError:
            pass
    return count


def test_a_store_closes_the_read_connection_of_a_thread_that_ended(tmp_path):
    """A server's worker threads come and go (anyio ends one idle for 10 s): each one's read connection
    stayed open for the whole contest, 21 of them in one test of a few pages (a process has 1024)."""
    import threading

    path = tmp_path / "contest.sqlite"
    with Store(path) as store:
        for _ in range(30):
            reader = threading.Thread(target=store.account, args=("nobody",))
            reader.start()
            reader.join()
        assert _descriptors_on(path) <= 3  # the writer, the last thread's reader, one made meanwhile
    assert _descriptors_on(path) == 0
