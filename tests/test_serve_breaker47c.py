"""`judge serve` against the third attacker's findings (issue 47, breaker 47c): each test one finding,
reproduced on the real app in-process, and what must be true instead."""

from __future__ import annotations

import csv
import io
import json
import re
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

from starlette.testclient import TestClient  # noqa: E402

from tcjudge.engine.results import TestResult  # noqa: E402
from tcjudge.errors import JudgeInputError  # noqa: E402
from tcjudge.serve.accounts import make_accounts  # noqa: E402
from tcjudge.serve.exports import awards  # noqa: E402
from tcjudge.serve.grading import unzip  # noqa: E402
from tcjudge.verdicts import Verdict  # noqa: E402

from .test_serve import ACCEPTED, Site, number_of, submit  # noqa: E402
from .test_serve_attacks import api, body, submissions_url, zipped  # noqa: E402
from .test_serve_findings import refusal  # noqa: E402
from .test_serve_pages import cells  # noqa: E402


# F5. Tied teams got different ranks, by their names: on the scoreboard page, the API's scoreboard,
# results.csv, and the winner and medals followed that order.

def judged(site: Site, username: str, minute: int, verdict: str, score: float | None = None) -> None:
    number = site.store.add_submission(site.team(username), "adder", "python3", "a.py", ACCEPTED, False, minute * 60000)
    site.store.record_judgement(number, time.time(), verdict, score, 1.0, "", [])


def ranks(site: Site) -> dict[str, dict[str, int]]:
    """Each team's rank by its name, as the API's scoreboard, results.csv and the scoreboard page say."""
    names = {str(row["id"]): row["name"] for row in site.store.rows("SELECT id, name FROM teams")}
    board = TestClient(site.app).get(f"/api/contests/{site.contest.id}/scoreboard",
                                     auth=("coach", site.passwords["coach"])).json()
    coach = site.client("coach")
    results = csv.DictReader(io.StringIO(coach.get("/coach/export.csv").text))
    page = re.findall(r'<tr[^>]*><td>(\d+)</td><th scope="row" class="team"><bdi>([^<]+)<', coach.get("/scoreboard").text)
    return {"api": {names[row["team_id"]]: row["rank"] for row in board["rows"]},
            "csv": {row["team"]: int(row["rank"]) for row in results},
            "page": {name.strip(): int(rank) for rank, name in page}}


def test_tied_teams_share_a_rank_and_a_medal_and_the_next_rank_counts_them(tmp_path):
    site = Site(tmp_path, freeze="0m", extra="medals: {gold: 1, silver: 1, bronze: 1}\n")
    make_accounts(site.store, [("Green", "green")], coach=False)
    assert all(found == {"Blue": 1, "Green": 1, "Red": 1} for found in ranks(site).values())  # (was 1, 2, 3 by name)
    judged(site, "red", 10, "AC")
    judged(site, "blue", 5, "WA")
    judged(site, "blue", 10, "CE")  # (no penalty)
    judged(site, "green", 30, "AC")
    judged(site, "red", 12, "WA")  # (after its AC: nothing)
    judged(site, "blue", 10, "WA")
    judged(site, "blue", 10, "AC")  # 10 + 2 * 20 = 50 minutes, Red 10: not tied
    assert all(found == {"Red": 1, "Green": 2, "Blue": 3} for found in ranks(site).values())
    (tmp_path / "tied").mkdir()
    tied = Site(tmp_path / "tied", freeze="0m", extra="medals: {gold: 1, silver: 1, bronze: 1}\n")
    make_accounts(tied.store, [("Green", "green")], coach=False)
    judged(tied, "red", 10, "AC")
    judged(tied, "blue", 10, "AC")
    judged(tied, "green", 30, "AC")
    assert all(found == {"Blue": 1, "Red": 1, "Green": 3} for found in ranks(tied).values())  # (was 1, 2, 3)
    ids = {name: str(tied.store.account(name.lower())["team_id"]) for name in ("Red", "Blue", "Green")}
    found = {award["id"]: sorted(award["team_ids"]) for award in awards(tied.serve)}
    # a tie across a medal's last place: each tied team has it; the places they take count against the next
    assert found["winner"] == found["gold-medal"] == sorted([ids["Red"], ids["Blue"]])
    assert found["silver-medal"] == [] and found["bronze-medal"] == [ids["Green"]]


def test_teams_tied_in_the_minutes_the_board_shows_share_a_rank_and_a_medal(tmp_path):
    """Breaker 55b F1: two teams shown tied (1 solved, 0 penalty, solved at 0') were ranked 1 and 2,
    and only one had gold: the last first AC's time was compared in ms (0:00:51.5 against 0:00:53.0)."""
    site = Site(tmp_path, freeze="0m", extra="medals: {gold: 1, silver: 1, bronze: 1}\n")
    for username, ms in (("red", 51_500), ("blue", 53_000)):
        number = site.store.add_submission(site.team(username), "adder", "python3", "a.py", ACCEPTED, False, ms)
        site.store.record_judgement(number, time.time(), "AC", None, 1.0, "", [])
    assert all(found == {"Blue": 1, "Red": 1} for found in ranks(site).values())  # (was Red 1, Blue 2)
    found = {award["id"]: sorted(award["team_ids"]) for award in awards(site.serve)}
    assert found["gold-medal"] == sorted(str(site.team(name)) for name in ("red", "blue"))


def test_ioi_teams_of_one_score_share_a_rank(tmp_path):
    site = Site(tmp_path, freeze="0m", extra="scoring: ioi\n")
    make_accounts(site.store, [("Green", "green")], coach=False)
    judged(site, "red", 10, "WA", 40.0)
    judged(site, "blue", 20, "WA", 40.0)
    judged(site, "green", 5, "WA", 30.0)
    assert all(found == {"Blue": 1, "Red": 1, "Green": 3} for found in ranks(site).values())  # (was 1, 2, 3)


# F7. A file name in NFD, as macOS writes `café.py` (e and U+0301), was refused, and the refusal showed
# a name that looks valid: "file name 'café.py': letters, digits, ...".

NFD = "cafe\u0301.py"


def test_a_name_in_nfd_is_taken_as_nfc_and_a_refusal_names_the_refused_character(tmp_path):
    site = Site(tmp_path)
    red = site.client("red")
    number = number_of(submit(red, name=NFD))  # (was 400)
    assert site.store.submission(number)["filename"] == "caf\u00e9.py"
    assert list(unzip(zipped((NFD, ACCEPTED)))) == ["caf\u00e9.py"]  # a zip's member too
    for name, character in (("q\u0301.py", "U+0301 (COMBINING ACUTE ACCENT)"), ("sol\u200b.py", "U+200B (ZERO WIDTH SPACE)")):
        said = refusal(submit(red, name=name).text)
        assert character in said and name not in said, said  # (the name shown escaped: q\u0301.py)
        answer = api(site).post(submissions_url(site), json=body(zipped((name, ACCEPTED))), auth=("red", site.passwords["red"]))
        assert answer.status_code == 400 and character in answer.json()["message"] and name not in answer.json()["message"]
    with pytest.raises(JudgeInputError) as caught:  # a multi-file program's names: ASCII only, the refused one named
        unzip(zipped(("adder.py", ACCEPTED), (NFD, b"X = 1\n")))
    assert "U+00E9 (LATIN SMALL LETTER E WITH ACUTE)" in caught.value.message and "caf\u00e9" not in caught.value.message


# F4. A rejected submission showed its team the memory (and CPU time) of its failing test, hidden
# (show_failing_test false): a program allocating as many MiB as a hidden input told it, one value
# per submission. A team now sees the figures of the problem's samples alone (Serve.measured).

LEAKING = b"""class Adder:
    def add(self, values, factor):
        if (values, factor) == ((1, 2, 3), 2):
            return 12  # the samples pass
        if not values:
            return 0
        leak = bytearray(len(values) * 10 << 20)  # the first hidden test (3 values): 30 MiB, then fail
        for at in range(0, len(leak), 4096):
            leak[at] = 1
        raise SystemExit(3)
"""


def samples_figures(site: Site, number: int) -> tuple[list[dict], list[dict]]:
    """A judgement's tests that ran: the samples', the others'."""
    ran = [test for test in json.loads(site.store.judgement(number)["tests"]) if test["verdict"]]
    return ([test for test in ran if test["name"].startswith("example-")],
            [test for test in ran if not test["name"].startswith("example-")])


def test_a_team_sees_no_figure_of_a_hidden_test(tmp_path):
    site = Site(tmp_path)  # (show_failing_test: false)
    red = site.client("red")
    number = number_of(submit(red, LEAKING))
    site.grader.grade(number)
    samples, hidden = samples_figures(site, number)
    assert site.store.judgement(number)["verdict"] != "AC" and len(samples) == 2 and hidden
    assert max(test["memory_mib"] for test in hidden) >= 30  # (what the coach sees)
    memory, cpu = max(test["memory_mib"] for test in samples), max(test["cpu_ms"] for test in samples)
    team = cells(red.get("/submissions").text, number)
    assert team["memory"] == f"{memory:.1f} MiB" and team["cpu"] == f"{round(cpu)} ms", team  # (was 30-odd MiB)
    assert cells(site.client("coach").get("/submissions").text, number)["memory"] == \
        f"{max(test['memory_mib'] for test in samples + hidden):.1f} MiB"
    auth = ("red", site.passwords["red"])
    judgements = api(site).get(f"/api/contests/{site.contest.id}/judgements", auth=auth).json()
    feed = api(site).get(f"/api/contests/{site.contest.id}/event-feed?stream=false", auth=auth).text
    fed = [json.loads(line)["data"] for line in feed.splitlines() if line and json.loads(line)["type"] == "judgements"]
    assert [j["max_run_time"] for j in judgements + fed] == [round(cpu / 1000, 3)] * 2


def test_a_gradings_live_figures_are_of_the_samples_alone_for_a_team(tmp_path):
    site = Site(tmp_path)
    red = site.client("red")
    number = number_of(submit(red, LEAKING))
    names = [test.name for test in site.problems["adder"].tests]
    seen = []

    def pool(runs, on_test, team_id):
        run = runs[0]
        for index, result in ((0, TestResult(names[0], Verdict.AC, 2.0, 2.0, 10.0)),
                              (1, TestResult(names[1], Verdict.AC, 3.0, 3.0, 11.0)),
                              (2, TestResult(names[2], Verdict.AC, 9.0, 9.0, 50.0)),
                              (3, TestResult(names[3], Verdict.RE, 7.0, 7.0, 45.0))):
            run.record(index, result)
            on_test(run, index, result)
            seen.append(cells(red.get("/submissions").text, number))
        return [run.result()]

    site.grader._grade_runs = pool
    site.grader.grade(number)
    assert [(figures["cpu"], figures["memory"]) for figures in seen] == [("2 ms", "10.0 MiB")] + [("3 ms", "11.0 MiB")] * 3
    assert cells(red.get("/submissions").text, number)["memory"] == "11.0 MiB"  # (was 50.0: a hidden test's)


# F10. A coach's early freeze and unfreeze cancelled the contest file's own freeze (teams saw its last
# minutes live), and a coach's later freeze was backdated to the contest's freeze time, taking back a
# solve the teams had been shown.

def test_an_unfreeze_ends_only_the_freeze_in_force_and_a_freeze_starts_when_asked(tmp_path, monkeypatch):
    from datetime import datetime, timedelta, timezone
    from types import SimpleNamespace

    from tcjudge.serve import scoreboard

    from .test_serve_clics_shapes import check_state
    from .test_serve_pages import act, header_clock, state

    later = [0.0]  # seconds the contest's clock is moved on
    monkeypatch.setattr(scoreboard, "time", SimpleNamespace(time=lambda: time.time() + later[0]))
    site = Site(tmp_path, start=datetime.now(timezone.utc) - timedelta(minutes=60))  # 2 h, frozen from minute 90
    auth = ("red", site.passwords["red"])

    def blue_solved() -> int:
        """Blue's solves on the scoreboard red is shown (the API's, as the page's)."""
        rows = api(site).get(f"/api/contests/{site.contest.id}/scoreboard", auth=auth).json()["rows"]
        return next(row["score"]["num_solved"] for row in rows if row["team_id"] == str(site.team("blue")))

    assert act(site, "freeze").status_code == 303 and act(site, "unfreeze").status_code == 303  # at minute 60
    check_state(state(site))
    later[0] = 35 * 60  # minute 95: the contest file's freeze, from minute 90, is in force
    judged(site, "blue", 92, "AC")
    assert blue_solved() == 0  # (was 1: the early unfreeze had cancelled it)
    assert site.serve.clock.frozen_since_ms() == 90 * 60000
    assert header_clock(site.client("red").get("/scoreboard").text)[1]  # its header says "scoreboard frozen"
    frozen = state(site)
    check_state(frozen)
    assert frozen["frozen"] and frozen["thawed"] is None
    assert act(site, "unfreeze").status_code == 303  # ends the contest's freeze, for good
    assert blue_solved() == 1 and site.serve.clock.frozen_since_ms() is None
    check_state(state(site))
    later[0] = 37 * 60
    assert act(site, "freeze").status_code == 303  # minute 97: from now, not from minute 90
    assert blue_solved() == 1  # (was 0: the solve red had been shown was taken back)
    assert abs(site.serve.clock.frozen_since_ms() - 97 * 60000) < 60000
    judged(site, "red", 98, "AC")
    refrozen = state(site)
    check_state(refrozen)
    assert refrozen["thawed"] is None and refrozen["frozen"] > frozen["frozen"]
    rows = api(site).get(f"/api/contests/{site.contest.id}/scoreboard", auth=auth).json()["rows"]
    red = next(row for row in rows if row["team_id"] == str(site.team("red")))
    assert red["score"]["num_solved"] == 0 and red["problems"][0]["num_pending"] == 1  # (minute 98: hidden)


# F15. export.json opened in the coach's tab (no Content-Disposition), where export.csv, export.zip and
# submissions.csv download.

def test_every_export_downloads_as_a_file(tmp_path):
    site = Site(tmp_path)
    coach = site.client("coach")
    names = {export: coach.get(f"/coach/{export}").headers.get("content-disposition")
             for export in ("export.csv", "export.json", "export.zip", "submissions.csv")}
    assert names == {"export.csv": 'attachment; filename="results.csv"',
                     "export.json": 'attachment; filename="results.json"',  # (was None)
                     "export.zip": f'attachment; filename="{site.contest.id}.zip"',
                     "submissions.csv": 'attachment; filename="submissions.csv"'}
    assert coach.get("/coach/export.json").json()["contest"] == "Test"


# F12. Time limits were written three ways: "2 s", "1.0 s", "2.0 s" (the problems list, the statements).

@pytest.mark.parametrize("limit, shown", [(2, "2 s"), (2.0, "2 s"), (1.0, "1 s"), (1.5, "1.5 s"), (0.25, "0.25 s")])
def test_a_time_limit_is_written_one_way_on_every_page(tmp_path, limit, shown):
    site = Site(tmp_path)
    site.problems["adder"].time_limit = limit
    red = site.client("red")
    assert f"<td>{shown}</td>" in red.get("/problems").text  # (was 2.0 s, 1.0 s)
    assert f"Time limit {shown}, memory" in red.get("/problems/adder").text


# F11. A team's name with a right-to-left override and no closing mark ("Spill \u202eEvil") reversed the
# page's own words after it: the coach's "Question from ..., minute 13", the rejudge button, a
# scoreboard row. Every name or text a team controls is a <bdi> (a title's: between FSI and PDI).

def isolated(page: str, text: str) -> int:
    """How often `text` is on the page, each time alone in a <bdi> or between FSI and PDI (else fails)."""
    found = [match.start() for match in re.finditer(re.escape(text), page)]
    for at in found:
        before, after = page[:at], page[at + len(text):]
        assert (re.search(r'<bdi( class="team")?>$', before) and after.startswith("</bdi>")) or \
            (before.endswith("\u2068") and after.startswith("\u2069")), page[max(0, at - 80):at + len(text) + 40]
    return len(found)


def test_a_teams_name_and_texts_keep_their_direction_to_themselves(tmp_path):
    site = Site(tmp_path)
    name, question, filename = "Spill \u202eEvil", "How big \u202eis n", "\u05e9\u05dc\u05d5\u05dd.py"
    ((_, _, password),) = make_accounts(site.store, [(name, "spill")], coach=False)
    site.passwords["spill"] = password
    spill = site.client("spill")
    number = number_of(submit(spill, name=filename))
    site.grader.grade(number)
    csrf = re.search(r'name="csrf" value="([^"]+)"', spill.get("/clarifications").text).group(1)
    assert spill.post("/clarifications", data={"csrf": csrf, "text": question, "problem": ""}).status_code == 303
    coach = site.client("coach")
    shown = {path: coach.get(path).text for path in ("/scoreboard", "/submissions", f"/submissions/{number}",
                                                      "/clarifications", f"/coach/rejudge?team={site.team('spill')}")}
    assert isolated(shown["/scoreboard"], name) == 1 and isolated(shown["/submissions"], name) == 1  # (were bare)
    assert isolated(shown[f"/submissions/{number}"], name) == 2  # its row, the rejudge button
    assert isolated(shown[f"/submissions/{number}"], filename) == 1  # the source's heading
    assert isolated(shown["/clarifications"], name) == 2 and isolated(shown["/clarifications"], question) == 1
    confirm = shown[f"/coach/rejudge?team={site.team('spill')}"]
    assert isolated(confirm, name) == 2  # the heading, the button (the title's: its controls dropped, breaker 50c)
    assert "<title>Rejudge every submission of \u2068Spill Evil\u2069? · Test</title>" in confirm
    own = {path: spill.get(path).text for path in ("/scoreboard", "/clarifications", f"/submissions/{number}")}
    assert isolated(own["/scoreboard"], name) == 1 and isolated(own["/clarifications"], question) == 1
    assert isolated(own[f"/submissions/{number}"], name) == 1
    assert isolated(site.client("red").get("/scoreboard").text, name) == 1
