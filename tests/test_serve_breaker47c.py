"""`judge serve` against the third attacker's findings (issue 47, breaker 47c): each test one finding,
reproduced on the real app in-process, and what must be true instead."""

from __future__ import annotations

import csv
import io
import re
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

from starlette.testclient import TestClient  # noqa: E402

from tcjudge.errors import JudgeInputError  # noqa: E402
from tcjudge.serve.accounts import make_accounts  # noqa: E402
from tcjudge.serve.exports import awards  # noqa: E402
from tcjudge.serve.grading import unzip  # noqa: E402

from .test_serve import ACCEPTED, Site, number_of, submit  # noqa: E402
from .test_serve_attacks import api, body, submissions_url, zipped  # noqa: E402
from .test_serve_findings import refusal  # noqa: E402


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
    page = re.findall(r'<tr[^>]*><td>(\d+)</td><th scope="row" class="team">([^<]+)<', coach.get("/scoreboard").text)
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
