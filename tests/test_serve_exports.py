"""The coach's exports of the results (issue 47: results.csv was the submission list with unrounded
floats, not the standings): results.csv the standings, awards.json the CLICS awards (winner, medals
where the contest file sets them, first to solve), submissions.csv every submission."""

from __future__ import annotations

import csv
import io
import json
import zipfile

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

from .test_serve import ACCEPTED, WRONG, Site, number_of, submit  # noqa: E402


def graded(site: Site, username: str, source: bytes) -> int:
    number = number_of(submit(site.client(username), source))
    site.grader.grade(number)
    return number


def table(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def test_results_csv_is_the_standings_with_the_awards(tmp_path):
    site = Site(tmp_path, extra="medals: {gold: 1, silver: 1}\n")
    graded(site, "red", ACCEPTED)
    graded(site, "blue", WRONG)
    graded(site, "blue", ACCEPTED)
    coach = site.client("coach")
    response = coach.get("/coach/export.csv")
    assert 'filename="results.csv"' in response.headers["content-disposition"]
    assert response.text.splitlines()[0] == "rank,team_id,team,awards,solved,penalty,A tries,A pending,A time"
    rows = table(response.text)  # before: a row per submission: id, team, problem, ..., max_cpu_ms
    red, blue = str(site.team("red")), str(site.team("blue"))
    assert [(r["rank"], r["team_id"], r["team"], r["solved"], r["penalty"], r["A tries"], r["A time"]) for r in rows] == [
        ("1", red, "Red", "1", "0", "1", "0"), ("2", blue, "Blue", "1", "20", "2", "0")]
    assert rows[0]["awards"] == "winner gold-medal first-to-solve-adder" and rows[1]["awards"] == "silver-medal"
    awards = coach.get("/coach/export.json").json()["awards"]
    assert awards == [{"id": "winner", "citation": "Contest winner", "team_ids": [red]},
                      {"id": "gold-medal", "citation": "Gold medal winner", "team_ids": [red]},
                      {"id": "silver-medal", "citation": "Silver medal winner", "team_ids": [blue]},
                      {"id": "bronze-medal", "citation": "Bronze medal winner", "team_ids": []},
                      {"id": "first-to-solve-adder", "citation": "First to solve problem A", "team_ids": [red]}]
    with zipfile.ZipFile(io.BytesIO(coach.get("/coach/export.zip").content)) as package:
        assert json.loads(package.read("awards.json")) == awards  # the CLICS contest package's awards.json


def test_no_award_before_a_team_scores_and_no_first_to_solve_while_an_earlier_one_waits(tmp_path):
    site = Site(tmp_path)  # (no medals in the contest file: none awarded)
    coach = site.client("coach")
    assert coach.get("/coach/export.json").json()["awards"] == [
        {"id": "winner", "citation": "Contest winner", "team_ids": []},
        {"id": "first-to-solve-adder", "citation": "First to solve problem A", "team_ids": []}]
    site.store.add_submission(site.team("blue"), "adder", "python3", "adder.py", ACCEPTED, False, 0)  # queued
    graded(site, "red", ACCEPTED)
    awards = {award["id"]: award["team_ids"] for award in coach.get("/coach/export.json").json()["awards"]}
    assert awards == {"winner": [str(site.team("red"))], "first-to-solve-adder": []}  # blue's may be first


def test_an_ioi_contests_results_have_scores_as_figures(tmp_path):
    site = Site(tmp_path, extra="scoring: ioi\n")
    graded(site, "red", WRONG)
    rows = table(site.client("coach").get("/coach/export.csv").text)
    assert list(rows[0])[4:] == ["score", "A tries", "A pending", "A time", "A score"]
    assert [(r["team"], r["score"], r["A score"]) for r in rows] == [("Red", "25", "25"), ("Blue", "0", "")]


def test_the_submission_list_is_submissions_csv_with_rounded_figures(tmp_path):
    site = Site(tmp_path)
    number = graded(site, "red", ACCEPTED)
    coach, red = site.client("coach"), site.client("red")
    response = coach.get("/coach/submissions.csv")
    assert 'filename="submissions.csv"' in response.headers["content-disposition"]
    [row] = table(response.text)
    assert (row["id"], row["team"], row["problem"], row["problem_id"], row["verdict"]) == (str(number), "Red", "A",
                                                                                          "adder", "AC")
    assert row["max_cpu_ms"].isdigit() and len(row["contest_time"].split(":")) == 3 and "." not in row["contest_time"]
    assert red.get("/coach/submissions.csv").status_code == 404
