"""`judge serve` against the fifth attacker's later findings (issue 47, breaker 50c, F7-F10): each test
one finding, reproduced on the real app in-process, and what must be true instead."""

from __future__ import annotations

import logging
import sqlite3
import threading
from contextlib import contextmanager

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

from tcjudge.serve import grading, store  # noqa: E402

from .test_serve import ACCEPTED, Site, csrf_of, login, submit  # noqa: E402
from .test_serve_attacks import api, body, submissions_url, zipped  # noqa: E402
from .test_serve_findings import ask, refusal  # noqa: E402


# F8. A disk that filled while the server ran: every login and submission was a 500 with a traceback,
# and the grader graded one submission again and again ("submission 6 could not be recorded").

@pytest.fixture
def said():
    """The records of uvicorn's log (whose warnings the server throttles), as they are said."""
    records: list[logging.LogRecord] = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = records.append
    logger = logging.getLogger("uvicorn.error")
    logger.addHandler(handler)
    yield records
    logger.removeHandler(handler)


def _disk_said(records: list[logging.LogRecord]) -> list[logging.LogRecord]:
    """The records of a full disk, none with a traceback."""
    assert not [record for record in records if record.exc_info]
    return [record for record in records if "disk is full" in record.getMessage()]


def test_under_the_floor_a_login_and_a_submission_are_503_with_one_line_on_the_page_and_the_api(tmp_path, monkeypatch,
                                                                                                   said):
    site = Site(tmp_path)
    red = site.client("red")  # (logged in while there was room)
    sessions = len(site.store.rows("SELECT token FROM sessions"))
    monkeypatch.setattr(store, "MIN_FREE_BYTES", 1 << 62, raising=False)  # (no disk has that much free)
    token = csrf_of(red.get("/submit").text)
    page = red.post("/submit", data={"csrf": token, "problem": "adder", "filename": "adder.py",
                                     "source": ACCEPTED.decode()})
    assert page.status_code == 503 and "disk is full" in refusal(page.text)
    assert "def " in page.text.split('id="source"', 1)[1]  # (the pasted source given back)
    answer = api(site).post(submissions_url(site), json=body(zipped(("adder.py", ACCEPTED))),
                            auth=("red", site.passwords["red"]))
    assert answer.status_code == 503 and "disk is full" in answer.json()["message"]
    assert answer.headers["retry-after"]
    blue = site.client()
    refused = login(blue, "blue", site.passwords["blue"])
    assert refused.status_code == 503 and "disk is full" in refusal(refused.text)
    assert "Traceback" not in page.text + answer.text + refused.text
    assert not site.store.rows("SELECT id FROM submissions")
    assert len(site.store.rows("SELECT token FROM sessions")) == sessions
    lines = _disk_said(said)
    assert len(lines) == 3 and len({record.msg for record in lines}) == 1  # (one kind: the server's throttle's key)
    monkeypatch.setattr(store, "MIN_FREE_BYTES", 4 << 20, raising=False)  # room again: taken
    assert submit(red).status_code == 303 and login(blue, "blue", site.passwords["blue"]).status_code == 303


def test_sqlites_disk_full_in_any_request_is_a_503_with_one_line(tmp_path, monkeypatch, said):
    site = Site(tmp_path)
    red, blue = site.client("red"), site.client()
    real = site.store.write

    @contextmanager
    def full_disk():
        raise sqlite3.OperationalError("database or disk is full")
        yield

    token = csrf_of(red.get("/clarifications").text)
    monkeypatch.setattr(site.store, "write", full_disk)
    monkeypatch.setattr(store, "MIN_FREE_BYTES", 0, raising=False)  # (over the floor: SQLite's own failure)
    answers = [login(blue, "blue", site.passwords["blue"]),
               red.post("/clarifications", data={"csrf": token, "text": "Is n > 0?", "problem": ""}),
               api(site).post(submissions_url(site), json=body(zipped(("adder.py", ACCEPTED))),
                              auth=("red", site.passwords["red"]))]
    assert [answer.status_code for answer in answers] == [503, 503, 503]
    assert "disk is full" in refusal(answers[0].text) and "disk is full" in answers[2].json()["message"]
    assert "Traceback" not in "".join(answer.text for answer in answers) and len(_disk_said(said)) == 3
    monkeypatch.setattr(site.store, "write", real)
    assert ask(red, "Is n > 0?").status_code == 303


def test_a_full_disks_commit_leaves_no_transaction_open_and_is_disk_full(tmp_path):
    opened = store.Store(tmp_path / "s.sqlite")
    try:
        opened._db = Failing(opened._db)
        with pytest.raises(sqlite3.OperationalError, match="disk is full"):  # (store.DiskFull)
            opened.set_meta("a", "1")
        opened._db = opened._db.real
        opened.set_meta("b", "2")  # (before: 'cannot start a transaction within a transaction')
        assert opened.meta("a") is None and opened.meta("b") == "2"
    finally:
        opened.close()


class Failing:
    """An SQLite connection whose COMMIT fails as on a full disk."""

    def __init__(self, real):
        self.real = real

    def execute(self, sql, *args):
        if sql == "COMMIT":
            raise sqlite3.OperationalError("database or disk is full")
        return self.real.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.real, name)


def test_a_judgement_the_store_cannot_take_is_written_again_after_a_pause_never_graded_again(tmp_path, monkeypatch,
                                                                                             capfd):
    site = Site(tmp_path)
    number = site.store.add_submission(site.team("red"), "adder", "python3", "adder.py", ACCEPTED, False, 0)
    runs, tries, real = [], [], site.store.record_judgement
    real_run = site.grader._run

    def run(*args):
        runs.append(args[0])
        return real_run(*args)

    def record(*args):
        tries.append(args[0])
        if len(tries) <= 2:
            raise sqlite3.OperationalError("database or disk is full")
        return real(*args)

    monkeypatch.setattr(site.grader, "_run", run)
    monkeypatch.setattr(site.store, "record_judgement", record)
    monkeypatch.setattr(grading, "RETRY_AFTER", 0.2)
    capfd.readouterr()
    site.grader._grading(number)
    err = capfd.readouterr().err
    assert runs == [number] and tries == [number] * 3  # graded once, written at the third try
    assert site.store.judgement(number)["verdict"] == "AC" and site.store.submission(number)["state"] == "judged"
    assert err.count(f"submission {number} could not be recorded") == 2 and "Traceback" not in err
    assert number not in site.grader.live


def test_a_judgement_waiting_for_room_stays_queued_when_the_server_stops(tmp_path, monkeypatch):
    site = Site(tmp_path)
    number = site.store.add_submission(site.team("red"), "adder", "python3", "adder.py", ACCEPTED, False, 0)
    tried = threading.Event()

    def record(*args):
        tried.set()
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(site.store, "record_judgement", record)
    thread = threading.Thread(target=site.grader._grading, args=(number,))
    thread.start()
    assert tried.wait(120)
    site.grader.stop()  # (it waited RETRY_AFTER: the stop ends the wait)
    thread.join(grading.STOP_WAIT * 3)
    assert not thread.is_alive() and site.store.submission(number)["state"] == "queued"


# F10. After the end (and the finalize) the submit page still offered its form to the teams, and to the
# coach, who never submits ("only a team submits" after sending).

def _form(page: str) -> bool:
    return 'id="submit"' in page or 'name="source"' in page


def test_the_submit_page_offers_no_form_after_the_end_nor_to_the_coach(tmp_path):
    from datetime import datetime, timedelta, timezone

    (tmp_path / "running").mkdir()
    (tmp_path / "ended").mkdir()
    running = Site(tmp_path / "running")
    assert _form(running.client("red").get("/submit").text)
    coach = running.client("coach").get("/submit")
    assert coach.status_code == 200 and not _form(coach.text) and "A coach does not submit" in coach.text
    ended = Site(tmp_path / "ended", start=datetime.now(timezone.utc) - timedelta(hours=3))
    red = ended.client("red")
    page = red.get("/submit")
    assert page.status_code == 200 and not _form(page.text) and "The contest is over" in page.text
    token = csrf_of(page.text)  # (a page loaded before the end, sent after it: refused, the paste shown)
    late = red.post("/submit", data={"csrf": token, "problem": "adder", "filename": "adder.py",
                                     "source": "print(42)"})
    assert late.status_code == 400 and "the contest has ended" in refusal(late.text)
    assert "print(42)" in late.text and not _form(late.text)
    assert not _form(ended.client("coach").get("/submit").text)


# F9. judge accounts' look-alike warning missed names that display as 'Red Rovers': two spaces, the
# invisible fillers the server's clarifications count as nothing, and Armenian, Cherokee and small
# capital look-alikes.

@pytest.mark.parametrize("alike", ["Red  Rovers", "Red Rovers\u3164", "Red Rovers\u2800", "Red Rovers\u115f",
                                   "Red Rovers\u034f", "Red R\u0585vers", "\u13a1ed Rovers", "Red Ro\u1d20ers",
                                   "\uab71ed Rovers", "Red\tRovers", "Red Rovers\ufe0f",
                                   "Red Rovers\u200b", "Red\u00a0Rovers", "R\u0435d R\u043ev\u0435rs"])
def test_judge_accounts_warns_of_names_that_look_alike(alike, capsys):
    from tcjudge.serve.accounts import lookalikes

    lookalikes(["Red Rovers", alike])
    assert "look alike" in capsys.readouterr().err


# breaker 52b F6: still missed were I for l and O for 0, Lisu, Runic, Canadian syllabics, Tifinagh and
# Latin v-like letters, and a blank filler in place of the space (it was dropped: 'redrovers').

@pytest.mark.parametrize("names", [("Blue Birds", "BIue Birds"), ("Team 01", "Team O1"), ("Red Rovers", "\ua4e3ed Rovers"),
                                   ("Red Rovers", "\u16b1ed Rovers"), ("Red Rovers", "\u1587ed Rovers"),
                                   ("Red Rovers", "Red R\u2d54vers"), ("Red Rovers", "Red Ro\u028bers"),
                                   ("Red Rovers", "Red Ro\u0475ers"), ("Red Rovers", "Red\u2800Rovers"),
                                   ("Red Rovers", "Red \u3164Rovers"), ("Modern", "Modem"), ("\u0406van", "Ivan"),
                                   # breaker 53b F5: a Lao zero, i with a combining dot, the dental click, "cl"
                                   ("Red Rovers", "Red R\u0ed0vers"), ("Blue Birds", "Blue Bi\u0307rds"),
                                   ("Blue Birds", "B\u01c0ue Birds"), ("Mallory", "Ma\u01c0\u01c0ory"),
                                   ("Red Rovers", "Recl Rovers")])
def test_judge_accounts_warns_of_more_look_alikes(names, capsys):
    from tcjudge.serve.accounts import lookalikes

    lookalikes(list(names))
    assert "look alike" in capsys.readouterr().err


def test_judge_accounts_does_not_warn_of_names_that_differ(capsys):
    from tcjudge.serve.accounts import lookalikes

    lookalikes(["Red Rovers", "Red Rover", "R\u00e9d Rovers", "Red Rovers 2", "Ped Rovers", "Blue", "Team 02", "Ice",
                "Ace", "Clover", "Dover", "RNA", "MA"])
    assert capsys.readouterr().err == ""


# F7. A team's event feed cost one store query per judgement event: 2 s of the server's time per read
# of a feed of 5,000 events, which a team can make and read 8 at once.

def test_a_teams_event_feed_reads_its_judgements_in_one_query_per_batch(tmp_path, monkeypatch):
    import json
    import time

    from .test_serve_attacks import feed

    site = Site(tmp_path)
    test = {"name": "1", "verdict": "AC", "cpu_ms": 1.0, "memory_mib": 1.0, "message": ""}
    for _ in range(60):
        number = site.store.add_submission(site.team("red"), "adder", "python3", "a.py", ACCEPTED, False, 0)
        site.store.record_judgement(number, time.time(), "AC", None, 1.0, "", [test])
    status, _ = feed(site, "red")  # (the feed's news written once: the contest's objects)
    queries = []
    for name in ("row", "rows"):
        counted = getattr(site.store, name)
        monkeypatch.setattr(site.store, name, lambda *args, counted=counted: queries.append(args[0]) or counted(*args))
    status, text = feed(site, "red")
    events = [json.loads(line) for line in text.splitlines()]
    judged = [event["data"] for event in events if event["type"] == "judgements"]
    assert status == 200 and len(judged) == 60
    assert len(queries) < 10, len(queries)  # (before: one a judgement, 60 and more)
    listed = api(site).get(f"/api/contests/{site.contest.id}/judgements", auth=("red", site.passwords["red"])).json()
    assert [{key: item[key] for key in ("id", "max_run_time")} for item in judged] == \
        [{key: item[key] for key in ("id", "max_run_time")} for item in listed]  # as a team sees them
