"""`judge serve`'s pages in-process (issue 47's browser findings, the rules behind them): the coach's
contest actions where they apply, with their confirmations; the tests column and a grading's live
figures; the coach's view of a failing test. The real-browser side of each is in
tests/test_serve_browser.py."""

from __future__ import annotations

import asyncio
import re
import time
from datetime import datetime, timedelta, timezone

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

from starlette.testclient import TestClient  # noqa: E402

from tcjudge.engine.results import TestResult  # noqa: E402
from tcjudge.verdicts import Verdict  # noqa: E402

from .test_serve import ACCEPTED, WRONG, Site, csrf_of, number_of, submit  # noqa: E402

ENDED = datetime.now(timezone.utc) - timedelta(hours=3)  # a 2 h contest that has ended


def act(site: Site, action: str):
    coach = site.client("coach")
    return coach.post("/coach/freeze", data={"csrf": csrf_of(coach.get("/scoreboard").text), "action": action})


def state(site: Site) -> dict:
    api = TestClient(site.app, base_url="http://127.0.0.1")
    return api.get(f"/api/contests/{site.contest.id}/state", auth=("coach", site.passwords["coach"])).json()


def test_finalize_applies_only_after_the_end_once_every_submission_is_judged(tmp_path):
    (tmp_path / "running").mkdir()
    (tmp_path / "ended").mkdir()
    running = Site(tmp_path / "running")
    refused = act(running, "finalize")
    assert refused.status_code == 409 and "has not ended" in refused.text  # (was 303: finalized, ended null)
    assert state(running)["finalized"] is None
    assert act(running, "unfreeze").status_code == 409  # not frozen: nothing to unfreeze

    site = Site(tmp_path / "ended", start=ENDED)
    assert act(site, "freeze").status_code == 409  # (ended: nothing more to hide)
    waiting = site.store.add_submission(site.team("red"), "adder", "python3", "a.py", ACCEPTED, False, 60 * 60000)
    refused = act(site, "finalize")
    assert refused.status_code == 409 and "1 submission(s) wait for their judgement" in refused.text
    site.grader.grade(waiting)
    assert act(site, "finalize").status_code == 303
    final = state(site)
    assert final["ended"] and final["finalized"] and final["end_of_updates"]
    assert act(site, "finalize").status_code == 409 and act(site, "unfreeze").status_code == 409
    coach = site.client("coach")
    token = csrf_of(coach.get("/submissions").text)
    assert coach.post("/coach/rejudge", data={"csrf": token, "submission": str(waiting)}).status_code == 409
    assert site.store.submission(waiting)["state"] == "judged"


def test_no_submission_is_taken_after_the_end(tmp_path):
    site = Site(tmp_path, start=ENDED)
    red = site.client("red")
    answer = submit(red)
    assert answer.status_code == 400 and "the contest has ended" in answer.text
    assert site.store.rows("SELECT * FROM submissions") == []


def test_a_rejudge_unfreeze_or_finalize_asked_by_a_link_is_a_page_to_confirm(tmp_path):
    site = Site(tmp_path, start=datetime.now(timezone.utc) - timedelta(minutes=100))  # frozen since minute 90
    number = number_of(submit(site.client("red")))
    site.grader.grade(number)
    coach = site.client("coach")
    for query, words in ((f"submission={number}", f"Rejudge submission {number}?"),
                         ("problem=adder", "Rejudge every submission of A: Adder?"),
                         (f"team={site.team('red')}", "Rejudge every submission of \u2068Red\u2069?")):
        page = coach.get(f"/coach/rejudge?{query}")
        assert page.status_code == 200 and words in page.text and "1 judged submission(s)" in page.text
    page = coach.get("/coach/freeze?action=unfreeze")
    assert page.status_code == 200 and "Unfreeze the scoreboard?" in page.text
    assert coach.get("/coach/freeze?action=finalize").status_code == 409  # not ended: not even asked
    assert site.store.submission(number)["state"] == "judged" and site.store.meta("freeze") is None  # nothing done
    assert site.client("red").get(f"/coach/rejudge?submission={number}").status_code == 404  # a team: no such page
    board = coach.get("/scoreboard").text
    assert 'href="/coach/freeze?action=unfreeze"' in board and "action=finalize" not in board
    assert 'value="freeze"' not in board  # frozen already


def cells(page: str, number: int) -> dict:
    """A submission's row's cells by class, as a page shows them."""
    row = page[page.index(f'id="s{number}"'):]
    row = row[:row.index("</tr>")]
    return {name: row.split(f'class="{name}">', 1)[1].split("<", 1)[0] for name in ("verdict", "tests", "cpu", "memory")}


def test_a_submissions_language_is_named_and_its_verdict_explained(tmp_path):
    """Breaker 54b: the language column said "python3", an id, and no page said what RE, CE or IE
    meant. Now the language's name, each verdict's words in its cell's title, and a legend."""
    site = Site(tmp_path)
    red = site.client("red")
    wrong = number_of(submit(red, WRONG))
    site.grader.grade(wrong)
    for page in (red.get("/submissions").text, red.get(f"/submissions/{wrong}").text):
        row = page[page.index(f'id="s{wrong}"'):]
        row = row[:row.index("</tr>")]
        assert '<td title="wrong answer" class="verdict">WA</td>' in row and "<td>Python 3</td>" in row
        assert '<abbr title="run-time error">RE</abbr> run-time error' in page  # the legend
        assert '<abbr title="compile error">CE</abbr>' in page and "python3" not in row


def test_the_coach_has_a_teams_page_leading_to_each_teams_submissions(tmp_path):
    """Breaker 54b: no Teams page for the coach (DOMjudge's jury has one). Now every team with its
    account, rank, solved count, submissions sent and waiting and its last minute; its name leads to
    its submissions alone. A team gets 404 for the page, and its own list whatever it asks."""
    site = Site(tmp_path)
    red, blue = site.client("red"), site.client("blue")
    right, wrong = number_of(submit(red)), number_of(submit(blue, WRONG))
    site.grader.grade(right)
    site.grader.grade(wrong)
    waiting = number_of(submit(blue, WRONG))
    coach = site.client("coach")
    page = coach.get("/coach/teams").text
    assert 'href="/coach/teams" aria-current="page">Teams' in page and "<h1>Teams (2)</h1>" in page
    rows = {re.search(r"<bdi>(\w+)</bdi>", row).group(1): re.findall(r"<td>([^<]*)</td>", row)
            for row in page.split('<td class="team">')[1:]}
    assert rows == {"Blue": ["blue", "2", "0", "0", "2", "1", "0"], "Red": ["red", "1", "1", "0", "1", "0", "0"]}
    blue_id = site.store.row("SELECT id FROM teams WHERE name = 'Blue'")["id"]
    listed = coach.get(f"/submissions?team={blue_id}").text
    assert "Submissions of <bdi>Blue</bdi>" in listed and f'id="s{wrong}"' in listed and f'id="s{waiting}"' in listed
    assert f'id="s{right}"' not in listed and f'data-team="{blue_id}"' in listed
    assert coach.get("/submissions?team=999").status_code == 404 and coach.get("/submissions?team=x").status_code == 400
    assert red.get("/coach/teams").status_code == 404 and "Teams" not in red.get("/problems").text
    mine = red.get(f"/submissions?team={blue_id}").text  # (a team's own list, whatever it asks)
    assert f'id="s{right}"' in mine and f'id="s{wrong}"' not in mine


def test_the_coachs_open_scoreboard_is_told_when_finalize_comes_with_the_last_judgement(tmp_path):
    """Breaker 55b F5: the last judgement (a WA after the team's AC: the board unchanged) left the open
    coach's scoreboard without "Finalize…" until a reload: its stream said nothing, the board's digest
    being the same. The coach's digest now follows what its actions depend on."""
    import time as clock

    site = Site(tmp_path, start=ENDED)
    right = site.store.add_submission(site.team("red"), "adder", "python3", "a.py", b"x", False, 60000)
    site.store.record_judgement(right, clock.time(), "AC", None, 1.0, "", [])
    late = site.store.add_submission(site.team("red"), "adder", "python3", "a.py", b"x", False, 120000)
    waiting = site.serve.board_digest(True), site.serve.board_digest(False)
    site.store.record_judgement(late, clock.time(), "WA", None, 1.0, "", [])
    site.grader.version += 1  # (as grading it moves it)
    assert site.serve.board_digest(False) == waiting[1]  # the teams' board: unchanged
    assert site.serve.board_digest(True) != waiting[0]  # (before: the same, and no "Finalize…" until a reload)


def test_a_rejudge_says_so_lists_every_judgement_for_the_coach_and_the_final_board_shows_medals(tmp_path):
    """Breaker 55b F9: after a rejudge, ?rejudged=2 said nothing, the coach's submission page showed its
    latest judgement alone, and the medals were only in the exports (DOMjudge shows all three)."""
    import time as clock

    site = Site(tmp_path, start=ENDED, extra="medals: {gold: 1, silver: 0, bronze: 1}\n")
    right = site.store.add_submission(site.team("red"), "adder", "python3", "a.py", b"x", False, 60000)
    site.store.record_judgement(right, clock.time(), "WA", None, 1.0, "", [])
    site.store.requeue("id = ?", right)
    site.store.record_judgement(right, clock.time(), "AC", None, 1.0, "", [])
    coach = site.client("coach")
    page = coach.get(f"/submissions/{right}?rejudged=1").text
    assert "1 submission(s) sent to be judged again" in page
    history = page[page.index('id="history"'):page.index("</table>", page.index('id="history"'))]
    assert history.index("WA") < history.index("no (rejudged)") < history.index("AC") < history.index("yes")
    assert "sent to be judged again" in coach.get("/submissions?rejudged=2").text
    assert 'id="history"' not in site.client("red").get(f"/submissions/{right}?rejudged=1").text  # (the coach's)
    assert "medal" not in site.client("red").get("/scoreboard").text  # not final yet
    site.serve.clock.finalize()
    board = site.client("blue").get("/scoreboard").text
    assert '<bdi>Red</bdi> <span class="medal gold">gold medal</span>' in board and "bronze medal" not in board


def test_the_tests_column_tells_a_team_no_failing_tests_number_unless_the_contest_shows_it(tmp_path):
    (tmp_path / "hidden").mkdir()
    (tmp_path / "shown").mkdir()
    site = Site(tmp_path / "hidden")
    red = site.client("red")
    wrong, right = number_of(submit(red, WRONG)), number_of(submit(red))
    site.grader.grade(wrong)
    site.grader.grade(right)
    page = red.get("/submissions").text
    assert cells(page, wrong)["verdict"] == "WA" and cells(page, wrong)["tests"] == ""  # (was '1/4': the first failed)
    assert cells(page, right)["tests"] == "4/4"
    assert "First failing" not in red.get(f"/submissions/{wrong}").text
    own = red.get(f"/submissions/{wrong}").text  # its own file and source (breaker 54b F9: neither was shown)
    assert "<h2>Source (<bdi>adder.py</bdi>)</h2>" in own and "class Adder" in own
    assert site.client("blue").get(f"/submissions/{wrong}").status_code == 404  # another team's: still nothing
    coachs = site.client("coach").get("/submissions").text
    assert cells(coachs, wrong)["tests"] == "1/4"  # the coach sees it
    assert "title=\"tests run, of all the problem's tests\">Tests</th>" in coachs  # (breaker 56d F11: read as passed)

    shown = Site(tmp_path / "shown", extra="show_failing_test: true\n")
    red = shown.client("red")
    wrong = number_of(submit(red, WRONG))
    shown.grader.grade(wrong)
    assert cells(red.get("/submissions").text, wrong)["tests"] == "1/4"
    assert "First failing: test 1: WA" in red.get(f"/submissions/{wrong}").text


def test_a_gradings_live_figures_are_those_its_judgement_will_count(tmp_path):
    site = Site(tmp_path)
    number = number_of(submit(site.client("red"), WRONG))
    names = [test.name for test in site.problems["adder"].tests]
    seen = []

    def pool(runs, on_test, team_id):  # a pool whose second worker finishes a later test first
        run = runs[0]
        for index, result in ((2, TestResult(names[2], Verdict.MLE, 9.0, 9.0, 262.0)),
                              (1, TestResult(names[1], Verdict.WA, 3.0, 3.0, 128.0)),
                              (0, TestResult(names[0], Verdict.AC, 2.0, 2.0, 10.0)),
                              (3, TestResult(names[3], None))):  # (skipped: after the first failure)
            if result.verdict is not None:
                run.record(index, result)
            on_test(run, index, result)
            seen.append(dict(site.grader.live[number]))
        return [run.result()]

    site.grader._grade_runs = pool
    site.grader.grade(number)
    assert [(figures["done"], max((t["memory_mib"] for t in figures["tests"]), default=0.0)) for figures in seen] == [
        (0, 0.0), (0, 0.0), (2, 128.0), (2, 128.0)]
    # (before: (1, 262.0), (2, 262.0), (3, 262.0), (4, 262.0): the MLE that the WA before it withdraws, and the skipped test)
    coach = cells(site.client("coach").get("/submissions").text, number)
    assert coach == {"verdict": "WA", "tests": "2/4", "cpu": "3 ms", "memory": "128.0 MiB"}


def test_the_coach_sees_the_source_then_the_failing_tests_output_beside_the_expected_one(tmp_path):
    site = Site(tmp_path)
    number = number_of(submit(site.client("red"), WRONG))
    site.grader.grade(number)
    page = site.client("coach").get(f"/submissions/{number}").text
    assert page.index("<h2>Source (<bdi>adder.py</bdi>)</h2>") < page.index("<h2>Test example-0</h2>") < page.index("Tests run")
    compared = page[page.index('<div class="compared">'):]
    compared = compared[:compared.index("</section>")]
    assert "<h3>Its output</h3><pre tabindex=\"0\">6</pre>" in compared  # (no team output before)
    assert "<h3>Expected</h3><pre tabindex=\"0\">12</pre>" in compared and "[1, 2, 3], 2" in compared
    assert "not run</td>" not in page and "3 tests not run" in page  # (before: a row per test not run)
    team = site.client("red").get(f"/submissions/{number}").text
    assert 'class="compared"' not in team and "Tests run" not in team and "12" not in team.split("<main>")[1]


def badge(page: str) -> str:
    """The clarifications' badge as a page shows it ('' where hidden)."""
    found = page.split('id="unread"', 1)[1].split(">", 1)
    return "" if " hidden" in found[0] else found[1].split("<", 1)[0]


def test_clarifications_are_threads_with_unread_badges_and_a_broadcast_answer_quotes_its_question(tmp_path):
    site = Site(tmp_path)
    red, blue, coach = site.client("red"), site.client("blue"), site.client("coach")
    token = csrf_of(red.get("/clarifications").text)
    assert red.post("/clarifications", data={"csrf": token, "text": "May values be empty?"}).status_code == 303
    assert badge(coach.get("/problems").text) == "1 unanswered"  # (no badge before)
    token = csrf_of(coach.get("/clarifications").text)
    question = site.store.row("SELECT id FROM clarifications")["id"]
    assert coach.post("/clarifications", data={"csrf": token, "text": "Yes.", "reply_to": str(question),
                                               "to": "all"}).status_code == 303
    assert badge(coach.get("/problems").text) == ""
    assert badge(blue.get("/problems").text) == "1 new" and badge(red.get("/submissions").text) == "1 new"
    page = blue.get("/clarifications").text
    assert "to question" not in page  # (was "Answer, to question 1": a question blue never saw)
    assert "A question: <bdi>May values be empty?</bdi>" in page and "Answer to every team" in page
    assert badge(blue.get("/problems").text) == ""  # read
    page = red.get("/clarifications").text  # its own question, the answer beneath it
    assert page.index("Your question") < page.index("May values be empty?") < page.index("Answer to every team")
    assert "A question:" not in page
    assert coach.post("/clarifications", data={"csrf": token, "text": "?", "reply_to": "99"}).status_code == 400


def test_the_coachs_answer_forms_name_their_question_and_the_pages_say_what_they_mean(tmp_path):
    """Breaker 55b: three answer boxes named "Answer the question from team001" and five "Answer"
    buttons (F6); a question sent before the start said "minute -3" (F10); a refused file listed
    language ids where the page says names (F10); a scoreboard column cut its problem's name, with no
    title (F8)."""
    site = Site(tmp_path)
    first = site.store.add_clarification(site.team("red"), None, None, None, "Before?", -180_000)
    second = site.store.add_clarification(site.team("red"), None, None, None, "During?", 60_000)
    page = site.client("coach").get("/clarifications").text
    for number in (first, second):
        assert f'>Answer question {number}, from <bdi class="team">Red</bdi></label>' in page
        assert f'aria-label="Answer question {number}">Answer</button>' in page
        assert f"Question {number} from <bdi>Red</bdi>" in page
    assert "before the start" in page and "minute -" not in page and "minute 1" in page
    refused = submit(site.client("red"), ACCEPTED, name="adder.txt").text
    assert "Python 3: .py" in refused and "(python3" not in refused
    assert 'title="A: Adder"' in site.client("red").get("/scoreboard").text



def header_clock(page: str) -> tuple[str, bool]:
    """The freeze a page's header was given (its clock's data-freeze) and whether it says "frozen"."""
    header = page.split("</header>", 1)[0]
    freeze = re.search(r'id="clock"[^>]* data-freeze="([^"]*)"', header).group(1)
    return freeze, ' id="frozen" hidden' not in header


def test_the_login_page_says_nothing_of_a_freeze_it_could_not_follow(tmp_path):
    """breaker 52b F7: the login page, which has no stream, said "scoreboard frozen" from the contest
    file's freeze time and kept saying it after a coach's unfreeze. It shows the clock alone."""
    site = Site(tmp_path, start=datetime.now(timezone.utc).replace(microsecond=0) - timedelta(minutes=100))
    login = site.client().get("/login").text.split("</header>", 1)[0]
    assert 'id="clock"' in login and "scoreboard frozen" not in login and 'id="frozen"' not in login
    assert header_clock(site.client("red").get("/scoreboard").text)[1]  # (a team's page: frozen, and says so)


def clock_events(text: str) -> list[str]:
    """What a page's stream said of the freeze: its "clock" events' data."""
    blocks = (block.splitlines() for block in text.replace("\r\n", "\n").split("\n\n"))
    return [block[1][6:] for block in blocks if block[:1] == ["event: clock"]]


def test_a_page_is_told_of_the_freeze_to_come_and_its_stream_says_every_change_of_the_freeze(tmp_path, monkeypatch):
    """An outside tester's F12 (issue 47): a page open across the contest file's freeze never said
    "scoreboard frozen" (its clock's data held the freeze only once in force), and a coach's freeze,
    unfreeze or finalize reached no open page's header. The page is given the freeze to come; its
    stream, told what the page showed, says each change (a team's scoreboard's, a coach's quiet one)."""
    from types import SimpleNamespace

    from tcjudge.serve import scoreboard

    from .test_serve_feeds import Call, answered, until

    later = [0.0]  # seconds the contest's clock is moved on
    monkeypatch.setattr(scoreboard, "time", SimpleNamespace(time=lambda: time.time() + later[0]))
    start = datetime.now(timezone.utc).replace(microsecond=0) - timedelta(minutes=60)  # 2 h, frozen from minute 90
    site = Site(tmp_path, start=start)
    due = round((start + timedelta(minutes=90)).timestamp() * 1000)
    red, coach = site.client("red"), site.client("coach")
    shown, frozen = header_clock(red.get("/scoreboard").text)
    assert shown == f"-{due}-0" and not frozen  # (before: no freeze in the clock's data until it was in force)
    assert header_clock(coach.get("/problems").text) == (shown, False)

    def cookie(client) -> dict:
        return {"Cookie": "; ".join(f"{name}={value}" for name, value in client.cookies.items()),
                "Accept": "text/event-stream"}

    async def scenario() -> list[str]:
        board = Call(site.app, "GET", f"/events?board=1&clock={shown}", cookie(red))
        quiet = Call(site.app, "GET", f"/events?submissions=0&clock={shown}", cookie(coach))
        assert await answered(board, quiet) == [200, 200]
        assert await until(lambda: "event: board" in board.text)  # (its first: the board as it is)
        await asyncio.sleep(1)  # (what it would say of the freeze, it would have said by now: it looks every 0.5 s)
        assert clock_events(board.text + quiet.text) == []  # nothing changed from what the pages showed
        said = []
        for minutes, action in ((31, None), (0, "unfreeze"), (0, "freeze"), (30, "finalize")):
            later[0] += minutes * 60  # (minute 91: the file's freeze, by itself; minute 121: ended, to finalize)
            if action:
                assert (await asyncio.to_thread(act, site, action)).status_code == 303, action
            said.append(site.serve.clock.shown()["freeze"])
            for call in (board, quiet):
                assert await until(lambda: clock_events(call.text) == said), (action, said, clock_events(call.text))
        for call in (board, quiet):
            await call.leave()
        return said

    said = asyncio.run(scenario())
    assert said[:2] == [f"{due}--0", "--0"] and said[3] == "--1"  # in force; thawed for good; final
    assert re.fullmatch(r"\d+--0", said[2]) and int(said[2].split("-")[0]) > due  # the coach's, from then
    assert header_clock(red.get("/scoreboard").text) == ("--1", False)
