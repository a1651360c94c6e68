"""`judge serve` in-process: the contest file, accounts, and who may see what (the security tests of
docs/serve.md), on the real app with a real store; grading is done by calling the grader directly."""

from __future__ import annotations

import base64
import csv
import io
import json
import re
import sqlite3
import time
import zipfile
from argparse import Namespace
from datetime import datetime, timedelta, timezone

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

from starlette.testclient import TestClient  # noqa: E402

from tcjudge.cli import main  # noqa: E402
from tcjudge.errors import JudgeInputError  # noqa: E402
from tcjudge.problems.loader import load_problem  # noqa: E402
from tcjudge.serve.accounts import make_accounts  # noqa: E402
from tcjudge.serve.api import problem_events, static_events  # noqa: E402
from tcjudge.serve.app import build_app  # noqa: E402
from tcjudge.serve.contest import load_contest  # noqa: E402
from tcjudge.serve.exports import awards  # noqa: E402
from tcjudge.serve.grading import Grader  # noqa: E402
from tcjudge.serve.state import Serve  # noqa: E402
from tcjudge.serve.store import Store  # noqa: E402

from .conftest import AFTER_THE_TEST, FIXTURE_PROBLEMS, TESTDATA  # noqa: E402

MINIMAL = """name: Practice 1
problems: [ellyscheckers, roxor]    # slugs under --problems, or paths to Kattis packages
start: now                          # or an ISO 8601 time
duration: 2h
freeze: 30m
scoring: icpc
"""
ACCEPTED = (TESTDATA / "solutions" / "accepted.py").read_bytes()
WRONG = (TESTDATA / "solutions" / "wrong_answer.py").read_bytes()


def test_the_minimal_contest_file_reads(tmp_path):
    path = tmp_path / "practice.yaml"
    path.write_text(MINIMAL)
    contest = load_contest(path)
    assert (contest.name, contest.problems, contest.start, contest.scoring) == ("Practice 1", ["ellyscheckers", "roxor"],
                                                                              None, "icpc")
    assert (contest.duration, contest.freeze, contest.id) == (timedelta(hours=2), timedelta(minutes=30), "practice")


@pytest.mark.parametrize("text, line, words", [
    ("name: x\nproblems: [a]\nduration: 2x\n", 3, "duration: expected a time span"),
    ("name: x\nproblems: [a]\nduration: 2h\nscoring: acm\n", 4, "scoring: expected one of icpc, ioi"),
    ("name: x\nproblems: [a]\nduration: 2h\nlanguages: [python3, scala]\n", 4, "unknown language id 'scala'"),
    ("name: x\nproblems: [a]\nduration: 2h\nstart: tomorrow\n", 4, "start: expected now or an ISO 8601 time"),
    ("name: x\nproblems: [a]\nduration: 1h\nfreeze: 2h\n", 4, "freeze: longer than the contest"),
    ("name: x\nproblem: [a]\nduration: 1h\n", 2, "unknown key 'problem'"),
    ("name: x\nproblems: [a]\nduration: 1h\nfoo: [\n", 5, "malformed YAML"),
])
def test_a_bad_contest_file_is_named_with_its_line(tmp_path, text, line, words):
    path = tmp_path / "contest.yaml"
    path.write_text(text)
    with pytest.raises(JudgeInputError) as caught:
        load_contest(path)
    assert str(caught.value).startswith(f"{path}:{line}: ") and words in str(caught.value)


def test_judge_accounts_writes_the_csv_and_slips_and_stores_only_argon2id_hashes(tmp_path, capsys):
    contest = tmp_path / "practice.yaml"
    contest.write_text(MINIMAL)
    out, store = tmp_path / "slips", tmp_path / "store.sqlite"
    assert main(["accounts", str(contest), "--count", "3", "--out", str(out), "--store", str(store)]) == 0
    rows = list(csv.reader((out / "accounts.csv").open()))
    assert rows[0] == ["team", "username", "password"] and len(rows) == 4
    assert all(len(password) == 12 for _, _, password in rows[1:])
    slips = (out / "slips.html").read_text()
    assert all(password in slips for _, _, password in rows[1:])
    with sqlite3.connect(store) as db:
        hashes = [h for (h,) in db.execute("SELECT hash FROM accounts")]
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert len(hashes) == 4 and all(h.startswith("$argon2id$") for h in hashes)
    raw = store.read_bytes() + (store.with_name(store.name + "-wal").read_bytes()
                                if store.with_name(store.name + "-wal").exists() else b"")
    assert not any(password.encode() in raw for _, _, password in rows[1:])


def test_an_older_stores_hash_made_with_other_parameters_still_logs_in(tmp_path):
    from argon2 import PasswordHasher

    site = Site(tmp_path)
    site.store.put_account("red", "Red", "team", PasswordHasher().hash("an-older-password"))  # the library's defaults
    assert "m=65536,t=3,p=4" in site.store.account("red")["hash"]
    assert login(site.client(), "red", "an-older-password").status_code == 303
    api = site.client()
    assert api.get(f"/api/contests/{site.contest.id}/account", auth=("red", "an-older-password")).status_code == 200
    assert "m=19456,t=2,p=1" in site.store.account("blue")["hash"]


def test_judge_accounts_reads_a_teams_csv(tmp_path):
    contest = tmp_path / "practice.yaml"
    contest.write_text(MINIMAL)
    teams = tmp_path / "teams.csv"
    teams.write_text("team,username\nThe Reds,reds\nThe Blues,\n")
    out = tmp_path / "out"
    assert main(["accounts", str(contest), "--teams", str(teams), "--out", str(out),
                 "--store", str(tmp_path / "s.sqlite")]) == 0
    rows = list(csv.DictReader((out / "accounts.csv").open()))
    assert [(r["team"], r["username"]) for r in rows] == [("The Reds", "reds"), ("The Blues", "team002")]


def test_a_late_team_without_a_username_takes_no_other_teams_account(tmp_path, capsys):
    """Breaker 55d F1: a late team's file of one row (no username) made it team001, which took the first
    team's account (its sessions ended, it left every scoreboard, its first solve went to another). A
    team given no username keeps its own account's, else gets the first free teamNNN; a username that
    is another team's (or the coach's) is refused, naming it."""
    contest = tmp_path / "practice.yaml"
    contest.write_text(MINIMAL)
    store = tmp_path / "s.sqlite"
    assert main(["accounts", str(contest), "--count", "2", "--out", str(tmp_path / "first"), "--store", str(store)]) == 0
    late = tmp_path / "late.csv"
    late.write_text("team\nNewcomers\n")

    def accounts_of(folder: str) -> list[tuple[str, str]]:
        return [(r["team"], r["username"]) for r in csv.DictReader((tmp_path / folder / "accounts.csv").open())]

    assert main(["accounts", str(contest), "--teams", str(late), "--out", str(tmp_path / "late"), "--store", str(store)]) == 0
    assert accounts_of("late") == [("Newcomers", "team003")]  # (before: team001, the first team's)
    assert main(["accounts", str(contest), "--teams", str(late), "--out", str(tmp_path / "again"), "--store", str(store)]) == 0
    assert accounts_of("again") == [("Newcomers", "team003")]  # its own account, a new password
    assert main(["accounts", str(contest), "--count", "4", "--out", str(tmp_path / "more"), "--store", str(store)]) == 0
    assert accounts_of("more")[:2] == [("team001", "team001"), ("team002", "team002")]
    with sqlite3.connect(store) as db:  # (teams team003 and team004 take the next free usernames)
        owners = dict(db.execute("SELECT a.username, t.name FROM accounts a JOIN teams t ON t.id = a.team_id"))
    assert owners == {"team001": "team001", "team002": "team002", "team003": "Newcomers", "team004": "team003",
                      "team005": "team004"}
    capsys.readouterr()
    taken = tmp_path / "taken.csv"
    taken.write_text("team,username\nThieves,team001\n")
    assert main(["accounts", str(contest), "--teams", str(taken), "--out", str(tmp_path / "no"), "--store", str(store)]) == 2
    assert "username 'team001' is the account of 'team001'" in capsys.readouterr().err
    taken.write_text("team,username\nImpostor,TEAM002\nFake Coach,Coach\n")  # (breaker 55e F2: case)
    assert main(["accounts", str(contest), "--teams", str(taken), "--out", str(tmp_path / "no"), "--store", str(store)]) == 2
    assert "username 'TEAM002' is 'team002' but for case, the account of 'team002'" in capsys.readouterr().err
    taken.write_text("team,username\nFake Coach,Coach\n")
    assert main(["accounts", str(contest), "--teams", str(taken), "--out", str(tmp_path / "no"), "--store", str(store)]) == 2
    assert "'coach' but for case, the account of the coach" in capsys.readouterr().err
    taken.write_text("team,username\nNew2,team010\nNew3,team010\n")  # (breaker 55e F3: said "team 'New3'")
    assert main(["accounts", str(contest), "--teams", str(taken), "--out", str(tmp_path / "no"), "--store", str(store)]) == 2
    assert "username 'team010' is listed twice" in capsys.readouterr().err


def test_a_refused_teams_file_makes_no_team(tmp_path, capsys):
    """Breaker 56b F1: `Red Rovers,red` then `Green Giants,RED` was refused, but only once Red Rovers and its
    account were made: a team no one had the password of stood on every scoreboard and in results.csv. A
    username repeated in any case is said as a repeat, with both lines; a file refused for its second row
    (a username that is another team's) makes nothing of its first."""
    contest = tmp_path / "practice.yaml"
    contest.write_text(MINIMAL)
    store = tmp_path / "s.sqlite"
    assert main(["accounts", str(contest), "--count", "1", "--out", str(tmp_path / "first"), "--store", str(store)]) == 0
    capsys.readouterr()
    late = tmp_path / "late.csv"
    for text, said in (("team,username\nRed Rovers,red\nGreen Giants,RED\n", "username 'RED' is listed twice (as 'red', line 2)"),
                       ("team,username\nRed Rovers,red\nThieves,team001\n", "username 'team001' is the account of 'team001'")):
        late.write_text(text)
        assert main(["accounts", str(contest), "--teams", str(late), "--out", str(tmp_path / "no"), "--store", str(store)]) == 2
        assert said in capsys.readouterr().err
        with sqlite3.connect(store) as db:
            assert [name for (name,) in db.execute("SELECT name FROM teams")] == ["team001"]  # (before: Red Rovers too)
            assert [user for (user,) in db.execute("SELECT username FROM accounts ORDER BY username")] == ["coach", "team001"]


def test_judge_accounts_adding_a_team_leaves_the_coachs_password_alone(tmp_path, capsys):
    """Breaker 54b F5: adding one late team gave the coach a new password (coach.csv stale, the coach's
    open page logged out). Only the first run, or --coach, makes the coach's password."""
    contest = tmp_path / "practice.yaml"
    contest.write_text(MINIMAL)
    store = tmp_path / "s.sqlite"
    assert main(["accounts", str(contest), "--count", "2", "--out", str(tmp_path / "first"), "--store", str(store)]) == 0
    first = (tmp_path / "first" / "coach.csv").read_text()
    late = tmp_path / "late.csv"
    late.write_text("team,username\nYellow Yaks,team003\n")
    assert main(["accounts", str(contest), "--teams", str(late), "--out", str(tmp_path / "late"), "--store", str(store)]) == 0
    assert not (tmp_path / "late" / "coach.csv").exists()
    assert "the coach's password is as it was" in capsys.readouterr().out
    with sqlite3.connect(store) as db:
        kept = db.execute("SELECT hash FROM accounts WHERE username = 'coach'").fetchone()[0]
    from argon2 import PasswordHasher

    assert PasswordHasher().verify(kept, list(csv.reader(io.StringIO(first)))[1][1])
    assert main(["accounts", str(contest), "--teams", str(late), "--out", str(tmp_path / "again"), "--store", str(store),
                 "--coach"]) == 0
    assert (tmp_path / "again" / "coach.csv").read_text() != first


class Site:
    """The app of a contest of the fixture problem `adder` (or `problem`, a folder of that slug), two
    teams (Red, Blue) and a coach, graded at -j `jobs`."""

    def __init__(self, tmp_path, start: datetime | None = None, freeze: str = "30m", extra: str = "",
                 problem=FIXTURE_PROBLEMS / "adder", jobs: int = 1):
        path = tmp_path / "contest.yaml"
        when = start.isoformat() if start else "now"
        path.write_text(f"name: Test\nproblems: [adder]\nstart: '{when}'\nduration: 2h\nfreeze: {freeze}\n{extra}")
        self.contest = load_contest(path)
        self.store = Store(tmp_path / "contest.sqlite")
        made = make_accounts(self.store, [("Red", "red"), ("Blue", "blue")])
        self.passwords = {username: password for _, username, password in made}
        self.problems = {"adder": load_problem(problem)}
        options = Namespace(history=tmp_path / "history.sqlite", source_limit=64, cluster=None, jobs=jobs,
                            argv=["serve"], cluster_require_isolation=False)
        self.grader = Grader(self.store, self.problems, self.contest, options)
        self.serve = Serve(self.contest, self.problems, self.store, self.grader, 64 * 1024)
        static_events(self.serve)
        problem_events(self.serve)  # (as the server does as it starts)
        self.app = build_app(self.serve)
        AFTER_THE_TEST.append(self.close)

    def close(self) -> None:
        """Stop the grader (its pool's zygotes) and close the store, as the server does as it stops."""
        self.grader.stop()
        self.store.close()

    def client(self, username: str | None = None) -> TestClient:
        client = TestClient(self.app, base_url="http://127.0.0.1", follow_redirects=False)
        if username:
            response = login(client, username, self.passwords[username])
            assert response.status_code == 303, response.text
        return client

    def team(self, username: str) -> int:
        return self.store.account(username)["team_id"]


def csrf_of(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def login(client: TestClient, username: str, password: str):
    token = csrf_of(client.get("/login").text)
    return client.post("/login", data={"csrf": token, "username": username, "password": password})


def submit(client: TestClient, source: bytes = ACCEPTED, name: str = "adder.py", **extra):
    token = csrf_of(client.get("/submit").text)
    return client.post("/submit", data={"csrf": token, "problem": "adder"} | extra, files={"file": (name, source)})


def number_of(response) -> int:
    assert response.status_code == 303, response.text
    return int(response.headers["location"].rsplit("/", 1)[1])


def test_a_submission_is_stored_before_its_answer_and_graded_through_the_run_owner(tmp_path):
    site = Site(tmp_path)
    red = site.client("red")
    number = number_of(submit(red))
    assert site.store.submission(number)["state"] == "queued"  # committed before the 303
    assert site.store.submission(number)["source"] == ACCEPTED
    wrong = number_of(submit(red, WRONG))
    site.grader.grade(number)
    site.grader.grade(wrong)
    assert site.store.judgement(number)["verdict"] == "AC" and site.store.judgement(wrong)["verdict"] == "WA"
    assert "AC" in red.get(f"/submissions/{number}").text
    history = sqlite3.connect(tmp_path / "history.sqlite")
    assert history.execute("SELECT count(*) FROM runs WHERE command = 'serve'").fetchone()[0] == 2
    # contestants see no expected value or input: the WA's message is the bare verdict
    page = red.get(f"/submissions/{wrong}").text
    assert "expected" not in page.lower()


def test_the_queue_shares_fairly_between_teams(tmp_path):
    site = Site(tmp_path)
    red, blue = site.team("red"), site.team("blue")
    reds = [site.store.add_submission(red, "adder", "python3", "a.py", ACCEPTED, False, 0) for _ in range(3)]
    blues = [site.store.add_submission(blue, "adder", "python3", "a.py", ACCEPTED, False, 0) for _ in range(2)]
    order = []
    for _ in range(5):
        number = site.grader.next_submission()
        order.append(number)
        site.store.record_judgement(number, time.time(), "AC", None, 1.0, "", [])
    assert order == [reds[0], blues[0], reds[1], blues[1], reds[2]]


def test_a_judge_error_is_an_ie_judgement_that_a_coach_rejudges(tmp_path):
    site = Site(tmp_path)
    number = site.store.add_submission(site.team("red"), "gone", "python3", "a.py", ACCEPTED, False, 0)
    site.grader.grade(number)
    judgement = site.store.judgement(number)
    assert judgement["verdict"] == "IE" and "no problem 'gone'" in judgement["message"]
    coach = site.client("coach")
    page = coach.get(f"/submissions/{number}").text
    assert "Rejudge submission" in page
    response = coach.post("/coach/rejudge", data={"csrf": csrf_of(page), "submission": str(number)})
    assert response.status_code == 303 and site.store.submission(number)["state"] == "queued"


def test_another_teams_submission_is_404_everywhere(tmp_path):
    site = Site(tmp_path)
    red, blue = site.client("red"), site.client("blue")
    number = number_of(submit(red))
    site.grader.grade(number)
    assert blue.get(f"/submissions/{number}").status_code == 404
    assert f'href="/submissions/{number}"' not in blue.get("/submissions").text
    cid = site.contest.id
    auth = ("blue", site.passwords["blue"])
    api = TestClient(site.app, base_url="http://127.0.0.1")
    assert api.get(f"/api/contests/{cid}/submissions/{number}", auth=auth).status_code == 404
    assert api.get(f"/api/contests/{cid}/submissions/{number}/files", auth=auth).status_code == 404
    assert api.get(f"/api/contests/{cid}/submissions", auth=auth).json() == []
    assert api.get(f"/api/contests/{cid}/judgements", auth=auth).json() == []
    assert api.get(f"/api/contests/{cid}/runs", auth=auth).json() == []
    feed = api.get(f"/api/contests/{cid}/event-feed?stream=false", auth=auth).text
    assert {json.loads(line)["type"] for line in feed.splitlines()} >= {"contest", "problems", "teams", "state"}
    assert not any(json.loads(line)["type"] in ("submissions", "judgements", "runs") for line in feed.splitlines())
    # the owner and the coach see it
    assert red.get(f"/submissions/{number}").status_code == 200
    own = api.get(f"/api/contests/{cid}/submissions", auth=("red", site.passwords["red"])).json()
    assert [s["id"] for s in own] == [str(number)]
    coach_page = site.client("coach").get(f"/submissions/{number}").text
    assert "class Adder" in coach_page  # the coach sees the source
    assert "class Adder" not in blue.get("/submissions").text
    assert api.get(f"/api/contests/{cid}/accounts", auth=auth).json() == [
        {"id": "blue", "username": "blue", "type": "team", "team_id": str(site.team("blue"))}]


def test_the_event_stream_of_a_team_holds_its_own_submissions_only(tmp_path):
    site = Site(tmp_path)
    red, blue = site.client("red"), site.client("blue")
    mine = number_of(submit(blue))
    number_of(submit(red))
    with blue.stream("GET", "/events") as stream:
        for line in stream.iter_lines():
            if line.startswith("data:"):
                data = json.loads(line[5:])
                break
    assert [s["id"] for s in data] == [mine]


def test_a_form_without_its_csrf_token_is_403(tmp_path):
    site = Site(tmp_path)
    red = site.client("red")
    for token in (None, "guessed"):
        data = {"problem": "adder"} | ({"csrf": token} if token else {})
        response = red.post("/submit", data=data, files={"file": ("adder.py", ACCEPTED)})
        assert response.status_code == 403
        assert red.post("/clarifications", data={"text": "hi"} | ({"csrf": token} if token else {})).status_code == 403
        assert red.post("/logout", data={"csrf": token} if token else {}).status_code == 403
    assert site.store.rows("SELECT * FROM submissions") == [] and site.store.rows("SELECT * FROM clarifications") == []
    fresh = site.client()
    fresh.get("/login")
    assert fresh.post("/login", data={"username": "red", "password": site.passwords["red"]}).status_code == 403
    coach = site.client("coach")
    assert coach.post("/coach/freeze", data={"action": "freeze"}).status_code == 403


def test_the_session_cookie_is_httponly_and_samesite_strict(tmp_path):
    site = Site(tmp_path)
    client = site.client()
    response = login(client, "red", site.passwords["red"])
    cookie = response.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "secure" not in cookie  # plain http on loopback
    secure = TestClient(site.app, base_url="https://127.0.0.1", follow_redirects=False)
    assert "secure" in login(secure, "red", site.passwords["red"]).headers["set-cookie"].lower()
    # a session ends at log out: its token is worth nothing after
    name = site.serve.auth.cookie("judge_session", https=False)
    token = client.cookies.get(name)
    client.post("/logout", data={"csrf": csrf_of(client.get("/problems").text)})
    other = site.client()
    other.cookies.set(name, token)
    assert other.get("/problems").status_code == 303


def test_a_frozen_scoreboard_shows_contestants_nothing_new(tmp_path):
    site = Site(tmp_path, start=datetime.now(timezone.utc) - timedelta(minutes=100))  # frozen since minute 90
    red, blue = site.team("red"), site.team("blue")
    before = site.store.add_submission(red, "adder", "python3", "a.py", ACCEPTED, False, 10 * 60000)
    during = site.store.add_submission(blue, "adder", "python3", "a.py", ACCEPTED, False, 95 * 60000)
    wrong = site.store.add_submission(red, "adder", "python3", "a.py", WRONG, False, 96 * 60000)
    for number, verdict in ((before, "AC"), (during, "AC"), (wrong, "WA")):
        site.store.record_judgement(number, time.time(), verdict, None, 1.0, "", [])
    cid = site.contest.id
    api = TestClient(site.app, base_url="http://127.0.0.1")
    for username in ("red", "blue"):
        page = site.client(username).get("/scoreboard").text
        assert '<p class="frozen">' in page and page.count('class="solved"') + page.count('class="first"') == 1
        assert "+1 pending" in page
        board = api.get(f"/api/contests/{cid}/scoreboard", auth=(username, site.passwords[username])).json()
        solved = {row["team_id"]: row["score"]["num_solved"] for row in board["rows"]}
        assert solved == {str(red): 1, str(blue): 0}
    coach = site.client("coach")
    page = coach.get("/scoreboard").text
    assert page.count('class="solved"') + page.count('class="first"') == 2  # the coach sees it live
    coach.post("/coach/freeze", data={"csrf": csrf_of(page), "action": "unfreeze"})
    board = api.get(f"/api/contests/{cid}/scoreboard", auth=("red", site.passwords["red"])).json()
    assert {row["team_id"]: row["score"]["num_solved"] for row in board["rows"]} == {str(red): 1, str(blue): 1}


def test_icpc_penalty_and_first_to_solve(tmp_path):
    site = Site(tmp_path, freeze="0m")
    red, blue = site.team("red"), site.team("blue")
    for team, minute, verdict in ((red, 5, "WA"), (red, 7, "CE"), (red, 12, "AC"), (red, 20, "WA"),
                                  (blue, 8, "AC")):
        number = site.store.add_submission(team, "adder", "python3", "a.py", ACCEPTED, False, minute * 60000)
        site.store.record_judgement(number, time.time(), verdict, None, 1.0, "", [])
    board = TestClient(site.app).get(f"/api/contests/{site.contest.id}/scoreboard",
                                     auth=("coach", site.passwords["coach"])).json()
    rows = {row["team_id"]: row for row in board["rows"]}
    assert rows[str(blue)]["rank"] == 1 and rows[str(blue)]["score"] == {"num_solved": 1, "total_time": 8}
    assert rows[str(red)]["score"] == {"num_solved": 1, "total_time": 12 + 20}  # one WA before; CE costs nothing
    assert all("first_to_solve" not in cell for row in rows.values() for cell in row["problems"])  # not the spec's
    first = {award["id"]: award["team_ids"] for award in awards(site.serve)}["first-to-solve-adder"]
    assert first == [str(blue)]  # the awards say it


def test_statement_samples_and_submission_rules(tmp_path):
    site = Site(tmp_path)
    red = site.client("red")
    assert "<h1>A: Adder</h1>" in red.get("/problems/adder").text
    with zipfile.ZipFile(io.BytesIO(red.get("/problems/adder/samples.zip").content)) as archive:
        text = archive.read(archive.namelist()[0]).decode()
        assert text.startswith("values = (") and "\nfactor = " in text and "\nreturns: " in text, text  # (breaker 54b F12)
        assert archive.namelist()[0] == "0.txt"  # adder's example-0, numbered as `judge statement` does
    assert red.get("/problems/nope").status_code == 404
    assert submit(red, name="adder.scala").status_code == 400  # not a contest language
    assert submit(red, source=b"#" * (64 * 1024 + 1)).status_code == 400  # over --source-limit
    token = csrf_of(red.get("/submit").text)
    pasted = red.post("/submit", data={"csrf": token, "problem": "adder", "filename": "adder.py",
                                       "source": ACCEPTED.decode()})
    assert site.store.submission(number_of(pasted))["language"] == "python3"
    empty = red.post("/submit", data={"csrf": token, "problem": "adder", "filename": "", "source": ""})
    assert empty.status_code == 400 and "nothing to send" in empty.text  # (breaker 54b F8: "name the file of the paste")
    assert site.client().get("/problems").status_code == 303  # logged out: to the login page


def test_clics_post_submission_with_basic_auth(tmp_path):
    site = Site(tmp_path)
    api = TestClient(site.app, base_url="http://127.0.0.1")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("adder.py", ACCEPTED)
    body = {"problem_id": "adder", "language_id": "python3",
            "files": [{"data": base64.b64encode(buffer.getvalue()).decode()}]}
    url = f"/api/contests/{site.contest.id}/submissions"
    assert api.post(url, json=body).status_code == 401
    response = api.post(url, json=body, auth=("red", site.passwords["red"]))
    assert response.status_code == 200, response.text
    number = int(response.json()["id"])
    assert response.json()["team_id"] == str(site.team("red"))
    assert api.post(url, json=body | {"language_id": "cpp"}, auth=("red", site.passwords["red"])).status_code == 400
    assert api.post(url, json=body, auth=("coach", site.passwords["coach"])).status_code == 403
    red = ("red", site.passwords["red"])  # breaker 55a: another team's id, or a time, was taken silently
    for given in ({"team_id": str(site.team("blue"))}, {"time": "2026-01-01T00:00:00Z"}, {"contest_time": "0:00:00"}):
        refused = api.post(url, json=body | given, auth=red)
        assert refused.status_code == 400 and ("team_id" in refused.text or "no time" in refused.text), refused.text
    assert api.post(url, json=body | {"team_id": str(site.team("red"))}, auth=red).status_code == 200  # its own
    site.grader.grade(number)
    judgements = api.get(f"/api/contests/{site.contest.id}/judgements", auth=("red", site.passwords["red"])).json()
    assert [(j["submission_id"], j["judgement_type_id"]) for j in judgements] == [(str(number), "AC")]
    assert api.get("/api", auth=("red", site.passwords["red"])).json()["version"] == "2023-06"
    languages = api.get(f"/api/contests/{site.contest.id}/languages", auth=("red", site.passwords["red"])).json()
    assert {item["id"] for item in languages} == {"python3", "cpp", "c", "java", "kotlin", "rust", "go", "haskell", "csharp",
                                                  "javascript", "ruby"}


def test_judge_init_contest_writes_a_contest_file_that_loads(tmp_path, capsys):
    assert main(["--problems", str(FIXTURE_PROBLEMS), "init", str(tmp_path), "--contest"]) == 0
    contest = load_contest(tmp_path / "contest.yaml")
    assert "adder" in contest.problems and contest.scoring == "icpc"
    assert main(["--problems", str(FIXTURE_PROBLEMS), "init", str(tmp_path), "--contest"]) == 2  # never overwritten


def test_the_coach_exports_results_and_the_contest_package_and_a_team_cannot(tmp_path):
    site = Site(tmp_path)
    red = site.client("red")
    number = number_of(submit(red))
    site.grader.grade(number)
    coach = site.client("coach")
    rows = list(csv.DictReader(io.StringIO(coach.get("/coach/export.csv").text)))  # the standings
    assert [(r["team"], r["solved"]) for r in rows] == [("Red", "1"), ("Blue", "0")]
    rows = list(csv.DictReader(io.StringIO(coach.get("/coach/submissions.csv").text)))
    assert [(r["id"], r["problem_id"], r["verdict"]) for r in rows] == [(str(number), "adder", "AC")]
    assert coach.get("/coach/export.json").json()["submissions"][0]["verdict"] == "AC"
    with zipfile.ZipFile(io.BytesIO(coach.get("/coach/export.zip").content)) as package:
        names = set(package.namelist())
        assert {"contest.json", "problems.json", "teams.json", "submissions.json", "judgements.json",
                "scoreboard.json", "awards.json", "event-feed.ndjson", f"submissions/{number}/files/adder.py"} <= names
        assert package.read(f"submissions/{number}/files/adder.py") == ACCEPTED
        assert json.loads(package.read("judgements.json"))[0]["judgement_type_id"] == "AC"
        assert {entry.date_time[0] for entry in package.infolist()} == {time.localtime().tm_year}  # (not 1980)
    for export in ("export.csv", "export.json", "export.zip", "submissions.csv"):
        assert red.get(f"/coach/{export}").status_code == 404


def test_statements_render_math_as_mathml_from_markdown_and_latex():
    from tcjudge.serve.statements import statement_html

    latex = statement_html(load_problem(TESTDATA / "kattis" / "addtwo"))
    assert "<h2>Input</h2>" in latex and latex.count("<math") >= 5 and "$" not in latex and "\\section" not in latex
    markdown = statement_html(load_problem(TESTDATA / "kattis" / "splitsum"))
    assert "<msup>" in markdown and "$" not in markdown
    assert "<h1>" not in markdown  # (its "# Split Sum": the page's own heading says it)


def test_ioi_scoring_sums_each_problems_best_score(tmp_path):
    site = Site(tmp_path, freeze="0m", extra="scoring: ioi\n")
    red, blue = site.team("red"), site.team("blue")
    for team, score in ((red, 40.0), (red, 75.0), (red, 50.0), (blue, 60.0)):
        number = site.store.add_submission(team, "adder", "python3", "a.py", ACCEPTED, False, 60000)
        site.store.record_judgement(number, time.time(), "WA", score, 1.0, "", [])
    board = TestClient(site.app).get(f"/api/contests/{site.contest.id}/scoreboard",
                                     auth=("coach", site.passwords["coach"])).json()
    assert [(row["team_id"], row["score"]) for row in board["rows"]] == [(str(red), {"score": 75.0}),
                                                                         (str(blue), {"score": 60.0})]
    # a pass-fail problem in an ioi contest: the share of its tests passed, every test run
    number = site.store.add_submission(blue, "adder", "python3", "a.py", WRONG, False, 60000)
    site.grader.grade(number)
    judgement = site.store.judgement(number)
    tests = json.loads(judgement["tests"])
    assert all(t["verdict"] for t in tests)  # not stopped at the first failure
    assert judgement["score"] == round(100 * sum(t["verdict"] == "AC" for t in tests) / len(tests), 2)


def test_listening_beyond_loopback_warns(capsys):
    from tcjudge.serve.app import warn_exposed

    warn_exposed("127.0.0.1")
    assert capsys.readouterr().err == ""
    warn_exposed("0.0.0.0")
    assert "without TLS" in capsys.readouterr().err


def test_a_zip_of_several_files_is_refused_for_a_method_problem(tmp_path):
    site = Site(tmp_path)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("adder.py", ACCEPTED)
        archive.writestr("helper.py", b"X = 1\n")
    response = submit(site.client("red"), source=buffer.getvalue(), name="both.zip")
    assert response.status_code == 400 and "takes one file" in response.text
    assert site.store.rows("SELECT * FROM submissions") == []


def test_a_multi_file_program_is_submitted_as_a_zip_and_graded_as_a_folder(tmp_path):
    product = TESTDATA / "kattis" / "product"
    path = tmp_path / "contest.yaml"
    path.write_text(f"name: Files\nproblems: [{product}]\nduration: 1h\n")
    contest = load_contest(path)
    store = Store(tmp_path / "store.sqlite")
    made = {user: password for _, user, password in make_accounts(store, [("Red", "red")])}
    problems = {"product": load_problem(product)}
    options = Namespace(history=tmp_path / "history.sqlite", source_limit=64, cluster=None, jobs=1, argv=["serve"],
                        cluster_require_isolation=False)
    grader = Grader(store, problems, contest, options)
    app = build_app(Serve(contest, problems, store, grader, 64 * 1024))
    buffer = io.BytesIO()
    folder = product / "submissions" / "accepted" / "py_main"
    with zipfile.ZipFile(buffer, "w") as archive:
        for file in sorted(folder.rglob("*")):
            if file.is_file():
                archive.write(file, file.relative_to(folder).as_posix())
    response = TestClient(app).post(f"/api/contests/{contest.id}/submissions", auth=("red", made["red"]), json={
        "problem_id": "product", "language_id": "python3", "files": [{"data": base64.b64encode(buffer.getvalue()).decode()}]})
    assert response.status_code == 200, response.text
    number = int(response.json()["id"])
    grader.grade(number)
    assert store.judgement(number)["verdict"] == "AC", store.judgement(number)["message"]


def test_the_event_feed_ends_after_the_coach_finalizes(tmp_path):
    site = Site(tmp_path, start=datetime.now(timezone.utc) - timedelta(hours=3))  # (finalized after its end)
    coach = site.client("coach")
    response = coach.post("/coach/freeze", data={"csrf": csrf_of(coach.get("/scoreboard").text), "action": "finalize"})
    assert response.status_code == 303
    api = TestClient(site.app, base_url="http://127.0.0.1")
    feed = api.get(f"/api/contests/{site.contest.id}/event-feed", auth=("red", site.passwords["red"])).text  # streams, then ends
    last = json.loads(feed.splitlines()[-1])
    assert last["type"] == "state" and last["data"]["end_of_updates"] and last["data"]["finalized"] and last["data"]["ended"]


def test_problem_names_stay_out_of_the_feed_until_the_start(tmp_path):
    site = Site(tmp_path, start=datetime.now(timezone.utc) + timedelta(hours=1))
    api = TestClient(site.app, base_url="http://127.0.0.1")
    auth = ("red", site.passwords["red"])
    feed = api.get(f"/api/contests/{site.contest.id}/event-feed?stream=false", auth=auth).text
    assert "adder" not in feed and "Adder" not in feed
    assert api.get(f"/api/contests/{site.contest.id}/problems", auth=auth).json() == []
    assert site.client("red").get("/problems/adder").status_code == 404
    site.serve.clock.start -= 2 * 3600  # the contest has begun
    feed = api.get(f"/api/contests/{site.contest.id}/event-feed?stream=false", auth=auth).text
    assert [json.loads(line)["id"] for line in feed.splitlines() if json.loads(line)["type"] == "problems"] == ["adder"]


def test_a_coachs_form_with_a_bad_number_is_400_not_a_crash(tmp_path):
    site = Site(tmp_path)
    coach = site.client("coach")
    token = csrf_of(coach.get("/submissions").text)
    assert coach.post("/coach/rejudge", data={"csrf": token, "submission": "x"}).status_code == 400
    assert coach.post("/clarifications", data={"csrf": token, "text": "hi", "reply_to": "x"}).status_code == 400


def test_teams_files_as_a_coach_writes_them_are_read_or_refused_naming_the_line(tmp_path, capsys):
    """Breaker 56d: on a fresh store `A,coach` (and `A,COACH`) was taken beside the coach's account (F1); a
    new username for a team that had one left the old one working (F3); `team;username` and `name,user`
    headers were read as teams (F4); an unterminated quote took the next row into a name (F5); a UTF-16
    file was a traceback (F6); look-alike and non-ASCII usernames were taken (F7); `A,` then `B,team001`
    gave A team001 and refused B (F8); a team listed twice with two usernames got both (F9)."""
    contest = tmp_path / "practice.yaml"
    contest.write_text(MINIMAL)
    teams = tmp_path / "teams.csv"

    def accounts(text, store="s.sqlite", encoding="utf-8") -> tuple[int, str]:
        teams.write_bytes(text.encode(encoding))
        code = main(["accounts", str(contest), "--teams", str(teams), "--out", str(tmp_path / "out"),
                     "--store", str(tmp_path / store)])
        return code, capsys.readouterr().err

    for text, said in (("team,username\nA,coach\n", "username 'coach' is the account of the coach"),
                       ("team,username\nA,COACH\nB,b\n", "username 'COACH' is 'coach' but for case"),
                       ("team;username\nRed;red\n", "teams.csv:1: its columns are separated by a semicolon"),
                       ("name,user\nRed,red\n", "teams.csv:1: 2 columns, and no first line naming a 'team' column"),
                       ('team,username\n"Open,op\nNext,nx\n', "teams.csv:2: team 'Open,op\\nNext,nx': a line break"),
                       ("team,username\nRed,r\u0435d\n", "username 'r\u0435d': 1 to 36 of the ASCII letters"),
                       ("team,username\nRed,.hidden\n", "username '.hidden': 1 to 36"),
                       ("team,username\nDup,d1\nDup,d2\n", "teams.csv:3: team 'Dup' is listed twice (line 2)")):
        code, err = accounts(text, store=f"fresh{len(said)}.sqlite")
        assert code == 2 and said in err, (text, err)
    code, said = accounts("team\nRed\n", encoding="utf-16")
    assert code == 2 and "teams.csv: not UTF-8 text" in said and "Traceback" not in said
    assert accounts("team,username\nA,\nB,team001\n")[0] == 0  # (F8: A takes team002)
    with sqlite3.connect(tmp_path / "s.sqlite") as db:
        assert dict(db.execute("SELECT t.name, a.username FROM accounts a JOIN teams t ON t.id = a.team_id")) == \
            {"A": "team002", "B": "team001"}
    assert accounts("team,username\nA,alpha\n")[0] == 0  # (F3: A's team002 goes, with its sessions)
    with sqlite3.connect(tmp_path / "s.sqlite") as db:
        assert sorted(db.execute("SELECT username FROM accounts")) == [("alpha",), ("coach",), ("team001",)]


def test_two_accounts_runs_at_once_on_one_store_hand_out_passwords_that_work(tmp_path):
    """Breaker 56d F2: two `judge accounts` runs at once on a live store both handed out team001-team020;
    the store kept 24 accounts for 43 teams, and half of the slips' passwords did not work. Each run
    decides its usernames in the transaction that writes them: the second one sees the first's."""
    from concurrent.futures import ThreadPoolExecutor

    from argon2 import PasswordHasher

    path = tmp_path / "store.sqlite"
    Store(path).close()
    runs = [[(f"Racer {side}{n}", None) for n in range(10)] for side in "AB"]
    with ThreadPoolExecutor(2) as pool:  # (coach=None: a first run's coach, as the transaction finds none)
        handed = [row for made in pool.map(lambda teams: make_accounts(Store(path), teams, coach=None), runs)
                  for row in made]
    with sqlite3.connect(path) as db:
        hashes = dict(db.execute("SELECT username, hash FROM accounts"))
    assert len(hashes) == 21 and len({username for _, username, _ in handed}) == 21  # (before: 10, each twice)
    assert [username for _, username, _ in handed].count("coach") == 1  # (breaker 56e F1: each run made it)
    assert all(PasswordHasher().verify(hashes[username], password) for _, username, password in handed)


def test_a_look_alike_pair_is_warned_of_by_the_run_that_names_one_of_them(tmp_path, capsys):
    """Breaker 56e F3: 'Red2' and 'red2', taken with a warning, were warned of again at every later run."""
    site = Site(tmp_path)
    make_accounts(site.store, [("Red2", None), ("red2", None)], coach=False)
    assert "'Red2' and 'red2' look alike" in capsys.readouterr().err
    make_accounts(site.store, [("Unrelated", None)], coach=False)
    assert "look alike" not in capsys.readouterr().err  # (before: warned again)
    make_accounts(site.store, [("RED2", None)], coach=False)
    assert "look alike" in capsys.readouterr().err


def test_judge_accounts_on_a_store_another_program_holds_says_so_in_a_line(tmp_path, capsys, monkeypatch):
    """Breaker 56f: a store held 45 s by another program (sqlite3's BEGIN EXCLUSIVE) made `judge accounts`
    end in a traceback after its 30 s wait ('database is locked'); nothing was written, as now."""
    from tcjudge.serve import accounts

    contest = tmp_path / "practice.yaml"
    contest.write_text(MINIMAL)

    def locked(*args, **kwargs):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(accounts, "make_accounts", locked)
    assert main(["accounts", str(contest), "--count", "2", "--out", str(tmp_path / "out"),
                 "--store", str(tmp_path / "s.sqlite")]) == 2
    said = capsys.readouterr().err
    assert "the contest's store was busy for 30 s" in said and "Traceback" not in said
