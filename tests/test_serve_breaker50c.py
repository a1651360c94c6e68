"""`judge serve` against the fifth attacker's findings (issue 47, breaker 50c): each test one finding,
reproduced on the real app in-process (or a server, or a browser, where it takes one), and what must
be true instead."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

from tcjudge.serve import state  # noqa: E402

from .test_serve import ACCEPTED, Site, submit  # noqa: E402
from .test_serve_attacks import api, body, submissions_url, zipped  # noqa: E402
from .test_serve_findings import refusal  # noqa: E402


# F1. One team filled the disk: 200 submissions of 253 KiB in 18 s, no bound on a team's submissions.

def test_a_teams_submissions_waiting_and_per_minute_are_bounded_on_the_page_and_the_api(tmp_path):
    site = Site(tmp_path)
    red, basic = site.client("red"), ("red", site.passwords["red"])
    for _ in range(state.QUEUED):  # (none judged: the grader is not running)
        assert submit(red).status_code == 303
    page = submit(red)
    assert page.status_code == 429 and f"{state.QUEUED} of your submissions wait" in refusal(page.text)
    answer = api(site).post(submissions_url(site), json=body(zipped(("adder.py", ACCEPTED))), auth=basic)
    assert answer.status_code == 429 and "wait for their verdict" in answer.json()["message"]
    assert len(site.store.rows("SELECT id FROM submissions")) == state.QUEUED
    assert submit(site.client("blue")).status_code == 303  # another team is not held back
    # a rejudge's submissions wait too, but they are the coach's: they count for nothing
    queued = [row["id"] for row in site.store.rows("SELECT id FROM submissions WHERE team_id = ?", site.team("red"))]
    for number in queued:
        site.store.record_judgement(number, time.time(), "WA", None, 1.0, "", [])
    site.store.requeue("team_id = ?", site.team("red"))
    for _ in range(state.PER_MINUTE - state.QUEUED):
        assert submit(red).status_code == 303
        site.store.record_judgement(site.store.rows("SELECT MAX(id) AS n FROM submissions")[0]["n"], time.time(),
                                    "WA", None, 1.0, "", [])
    page = submit(red)
    assert page.status_code == 429 and f"{state.PER_MINUTE} submissions in the last minute" in refusal(page.text)
    with site.store.write() as db:  # a minute later
        db.execute("UPDATE submissions SET time = time - 61")
    assert submit(red).status_code == 303


def test_the_contest_package_is_written_to_a_file_holding_one_source_at_a_time(tmp_path):
    import io
    import os
    import tracemalloc
    import zipfile

    from tcjudge.serve.api import contest_package

    site = Site(tmp_path)
    sources = [b"# " + os.urandom(30 * 1024).hex().encode() + b"\n" for _ in range(50)]  # 3 MiB that do not compress
    for source in sources:
        site.store.add_submission(site.team("red"), "adder", "python3", "adder.py", source, False, 0)
    with open(tmp_path / "package.zip", "w+b") as file:
        tracemalloc.start()
        try:
            contest_package(site.serve, file)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert peak < sum(map(len, sources)) / 3, peak  # (before: the whole zip in a buffer, and every source read at once)
    with zipfile.ZipFile(tmp_path / "package.zip") as package:
        stored = [package.read(name) for name in package.namelist() if name.endswith("/files/adder.py")]
        assert stored == sources and package.read("event-feed.ndjson").count(b'"type":"submissions"') == 50
    answer = site.client("coach").get("/coach/export.zip")  # the coach's download, sent from its file
    assert answer.headers["content-length"] == str(len(answer.content))
    with zipfile.ZipFile(io.BytesIO(answer.content)) as package:
        assert len([name for name in package.namelist() if name.endswith("/files/adder.py")]) == 50
    assert not [path for path in tmp_path.iterdir() if path.name.startswith(".export-")]


# F2. A team's name with its own PDI closed the FSI ... PDI around it in the rejudge page's title, heading
# and button, and its RLO turned the rest of the line ('? · Breaker 50c Practice' drawn reversed).

def test_a_teams_name_stays_isolated_in_the_rejudge_page_whatever_it_holds(tmp_path):
    import re

    from tcjudge.serve.accounts import make_accounts

    site = Site(tmp_path)
    name = "Eve\u2069\u202eSpill\u200f\u061c\u2066"
    make_accounts(site.store, [(name, "eve")], coach=False)
    page = site.client("coach").get(f"/coach/rejudge?team={site.team('eve')}").text
    title = re.search("<title>(.*)</title>", page).group(1)
    assert title == "Rejudge every submission of \u2068EveSpill\u2069? · Test"  # (was the name as it is)
    assert re.search("<h1>Rejudge every submission of <bdi>(.*)</bdi>\\?</h1>", page).group(1) == name
    assert re.search("<button[^>]*>Rejudge every submission of <bdi>(.*)</bdi></button>", page).group(1) == name
    assert "\u2068" not in page.replace(title, "")  # (the heading and the button: a <bdi> isolates, whatever it holds)
