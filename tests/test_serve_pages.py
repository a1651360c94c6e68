"""`judge serve`'s pages in-process (issue 47's browser findings, the rules behind them): the coach's
contest actions where they apply, with their confirmations. The real-browser side of each is in
tests/test_serve_browser.py."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

from starlette.testclient import TestClient  # noqa: E402

from .test_serve import ACCEPTED, Site, csrf_of, number_of, submit  # noqa: E402

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
                         ("problem=adder", "Rejudge every submission of Adder?"),
                         (f"team={site.team('red')}", "Rejudge every submission of Red?")):
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
