"""`judge serve` grades several submissions at once (-j N), fairly between teams (issue 47: one
submission that exceeded its time limit held the one grading thread, and the other teams' trivial
submissions waited 21 s). The order of events says it, not a wall-clock bound: a trivial AC sent
while another team's looping submission is graded is judged, and in its team's event feed, while
that one is still being graded."""

from __future__ import annotations

import shutil
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import yaml

pytest.importorskip("starlette")
pytest.importorskip("argon2")

from tcjudge.engine import feed as feed_module  # noqa: E402
from tcjudge.engine.feed import Feed, FeedClosed  # noqa: E402
from tcjudge.engine.pool import SolutionRun  # noqa: E402
from tcjudge.engine import results  # noqa: E402
from tcjudge.problems.loader import load_problem  # noqa: E402
from tcjudge.serve.accounts import make_accounts  # noqa: E402
from tcjudge.verdicts import Verdict  # noqa: E402

from .conftest import FIXTURE_PROBLEMS, TESTDATA  # noqa: E402
from .test_serve import ACCEPTED, Site, number_of, submit  # noqa: E402

LOOPS = (TESTDATA / "solutions" / "time_limit_loop.py").read_bytes()
WAIT = 300  # seconds a test waits for the grading at most (a busy machine): never the point


def many_tests(tmp_path, count: int = 12):
    """adder with `count` more tests: a looping submission in an ioi contest (every test run) spends
    0.5 s of CPU on each."""
    folder = tmp_path / "problems" / "adder"
    shutil.copytree(FIXTURE_PROBLEMS / "adder", folder)
    tests = [{"name": f"more-{i}", "args": {"values": [i], "factor": 1}, "expected": i} for i in range(count)]
    (folder / "tests" / "many.yaml").write_text(yaml.safe_dump(tests))
    return folder


def wait_for(condition, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not within {WAIT} s"
        time.sleep(0.02)


def feed_of(site: Site, username: str) -> list[dict]:
    import json

    response = site.client().get(f"/api/contests/{site.contest.id}/event-feed?stream=false",
                                 auth=(username, site.passwords[username]))
    return [json.loads(line) for line in response.text.splitlines() if line.strip()]


def test_a_trivial_ac_is_judged_while_another_teams_looping_submission_is_graded(tmp_path):
    site = Site(tmp_path, extra="scoring: ioi\n", problem=many_tests(tmp_path), jobs=2)
    site.grader.start()
    try:
        looping = number_of(submit(site.client("red"), LOOPS))
        wait_for(lambda: site.grader.live.get(looping, {}).get("done", 0) >= 1, "the looping submission's first test")
        sent = time.monotonic()
        trivial = number_of(submit(site.client("blue"), ACCEPTED))
        wait_for(lambda: any(event["type"] == "judgements" and event["data"]["submission_id"] == str(trivial)
                             for event in feed_of(site, "blue")), "the trivial submission's judgement in blue's feed")
        seen = time.monotonic() - sent
        assert site.store.submission(looping)["state"] == "queued", "the looping one is still being graded"
        wait_for(lambda: site.store.submission(looping)["state"] == "judged", "the looping submission's judgement")
    finally:
        site.grader.stop()
    red, blue = site.store.judgement(looping), site.store.judgement(trivial)
    assert (red["verdict"], blue["verdict"]) == ("TLE", "AC")
    assert blue["ended"] < red["ended"]  # before: blue's waited for red's to end
    print(f"blue's AC in its event feed {seen:.2f} s after it was sent, while red's was graded")


def test_a_team_has_one_submission_graded_at_a_time_and_the_next_is_another_teams(tmp_path):
    site = Site(tmp_path, jobs=2)
    red, blue = site.team("red"), site.team("blue")
    reds = [site.store.add_submission(red, "adder", "python3", "a.py", ACCEPTED, False, 0) for _ in range(2)]
    blues = [site.store.add_submission(blue, "adder", "python3", "a.py", ACCEPTED, False, 0) for _ in range(1)]
    assert site.grader.next_submission() == reds[0]
    site.grader._in_flight[reds[0]] = red  # (being graded)
    assert site.grader.next_submission() == blues[0]  # red's next waits for red's first
    site.grader._in_flight[blues[0]] = blue
    assert site.grader.next_submission() is None


class Workers:
    """Worker threads of a pool, each asking the feed for its next test from a thread of its own."""

    def __init__(self, count: int):
        self.threads = [ThreadPoolExecutor(1) for _ in range(count)]

    def take(self, feed: Feed, worker: int) -> tuple | None:
        job = self.threads[worker].submit(feed.take).result()
        return None if job is None else (job[0].solution.name, job[1])

    def close(self) -> None:
        for thread in self.threads:
            thread.shutdown()


def handed_in(feed: Feed, name: str, share: str, tests: int) -> SolutionRun:
    problem = load_problem(FIXTURE_PROBLEMS / "adder")
    run = SolutionRun(problem, TESTDATA / name, [problem.tests[0]] * tests, False)
    before = feed.qsize()
    threading.Thread(target=_quietly, args=(feed.grade, [run], None, share), daemon=True).start()
    wait_for(lambda: feed.qsize() == before + tests, f"{name} handed in")
    return run


def _quietly(grade, *args) -> None:
    try:
        grade(*args)
    except FeedClosed:
        pass


def done(feed: Feed, run: SolutionRun, index: int, wall_ms: float) -> None:
    feed.on_test(run, index, results.TestResult(run.tests[index].name, Verdict.AC, wall_ms, wall_ms))


def test_the_feed_gives_a_run_handed_in_the_next_free_worker_and_shares_between_teams():
    feed, workers = Feed(), Workers(3)
    try:
        long = handed_in(feed, "long", "red", 10)
        assert workers.take(feed, 0) == ("long", 0)
        assert workers.take(feed, 1) is None  # nothing is known of its tests yet: a worker stays free
        done(feed, long, 0, wall_ms=5)
        assert workers.take(feed, 1) == ("long", 1)  # a quick run alone: every worker on it
        handed_in(feed, "red-again", "red", 3)
        handed_in(feed, "blue", "blue", 3)
        assert workers.take(feed, 0) == ("blue", 0)  # runs wait with no worker: blue was served longer ago
        assert workers.take(feed, 1) == ("long", 2)  # the last worker on its run keeps to it
        assert workers.take(feed, 2) == ("red-again", 0)  # a free worker: the run with none
        assert workers.take(feed, 0) == ("blue", 1)
    finally:
        feed.close()
        workers.close()


def test_a_slow_run_keeps_one_worker_and_the_other_is_free_for_the_next_run():
    feed, workers = Feed(), Workers(2)
    try:
        long = handed_in(feed, "long", "red", 10)
        assert workers.take(feed, 0) == ("long", 0)
        done(feed, long, 0, wall_ms=5)
        assert workers.take(feed, 1) == ("long", 1)
        done(feed, long, 1, wall_ms=2000)  # (a test that exceeded its time limit)
        assert workers.take(feed, 1) is None  # not another test of it: free for the next run
        assert workers.take(feed, 0) == ("long", 2)
        handed_in(feed, "blue", "blue", 3)
        assert workers.take(feed, 1) == ("blue", 0)
    finally:
        feed.close()
        workers.close()


def test_a_team_whose_long_grading_just_ended_goes_after_the_teams_served_meanwhile(tmp_path):
    """Breaker 53b F1b: a team counted as served when its grading began, so one whose gradings held a
    place for minutes was served "longest ago" when each ended, and its next submission took the freed
    place before the one another team had sent meanwhile (honest submissions waited 41-162 s)."""
    site = Site(tmp_path, jobs=2)
    red, blue = site.team("red"), site.team("blue")
    slow = site.store.add_submission(red, "adder", "python3", "a.py", ACCEPTED, False, 0)
    assert site.grader.next_submission() == slow
    site.grader._in_flight[slow] = red  # (red's long grading)
    quick = site.store.add_submission(blue, "adder", "python3", "a.py", ACCEPTED, False, 0)
    assert site.grader.next_submission() == quick
    site.grader._in_flight[quick] = blue
    site.grader.finished(quick)  # (blue's quick one ends first; still queued here, as nothing was recorded)
    reds_next = site.store.add_submission(red, "adder", "python3", "a.py", ACCEPTED, False, 0)
    blues_next = site.store.add_submission(blue, "adder", "python3", "a.py", ACCEPTED, False, 0)
    site.grader.finished(slow)  # (red's ends after blue's)
    chosen = site.grader.next_submission()
    assert site.store.submission(chosen)["team_id"] == blue, chosen  # (before: red's, served "longest ago")
    assert reds_next > chosen


def test_a_worker_turns_to_the_waiting_run_that_has_had_least_of_the_workers_time(monkeypatch):
    """Breaker 54a: two teams' slow submissions held both workers of -j 2 for minutes, and a third team's
    trivial one waited 470-564 s; breaker 54d: served in turns between teams, a trivial one slowed by load
    waited a whole round (10-37 s). A worker, TURN_SECONDS on its run, turns at the end of a test to the
    waiting run that has had less of the workers' time, and that run keeps it while it has had least."""
    from tcjudge.engine import feed as feed_module

    monkeypatch.setattr(feed_module, "TURN_SECONDS", 0.0)
    feed, workers = Feed(), Workers(2)
    try:
        red, green = handed_in(feed, "red", "red", 10), handed_in(feed, "green", "green", 10)
        assert workers.take(feed, 0) == ("red", 0) and workers.take(feed, 1) == ("green", 0)
        done(feed, red, 0, wall_ms=2000)
        done(feed, green, 0, wall_ms=2000)
        assert workers.take(feed, 0) == ("red", 1)  # nobody waits: it keeps to its run
        blue = handed_in(feed, "blue", "blue", 3)
        done(feed, red, 1, wall_ms=2000)
        assert workers.take(feed, 0) == ("blue", 0)  # blue, served least, before red's next test
        done(feed, blue, 0, wall_ms=900)  # (slow under load: it still has had least)
        assert workers.take(feed, 0) == ("blue", 1)
        assert workers.take(feed, 1) == ("green", 1)  # red waits, but has had more than green
        done(feed, blue, 1, wall_ms=900)
        assert workers.take(feed, 0) == ("blue", 2)
        done(feed, blue, 2, wall_ms=900)
        assert workers.take(feed, 0) == ("red", 2)  # blue done: red takes the free worker
    finally:
        feed.close()
        workers.close()


def test_a_teams_fresh_submissions_carry_its_share_of_the_workers_time(monkeypatch):
    """Breaker 54f: counted per submission, teams that kept sending small ones always had a fresh one
    "least served", and another team's normal submission waited as long as they went on (168-294 s)."""
    from tcjudge.engine import feed as feed_module

    monkeypatch.setattr(feed_module, "TURN_SECONDS", 0.0)
    feed, workers = Feed(), Workers(1)
    try:
        normal = handed_in(feed, "normal", "blue", 10)
        assert workers.take(feed, 0) == ("normal", 0)
        done(feed, normal, 0, wall_ms=1000)
        small = handed_in(feed, "small", "red", 3)
        assert workers.take(feed, 0) == ("small", 0)  # red had none of the workers' time: its turn
        for index in range(3):
            done(feed, small, index, wall_ms=400)
            if index < 2:
                assert workers.take(feed, 0) == ("small", index + 1)
        handed_in(feed, "small-again", "red", 3)  # (fresh, but red has had 1.2 s of the workers, blue 1 s)
        assert workers.take(feed, 0) == ("normal", 1)  # (before: small-again, its own time 0)
    finally:
        feed.close()
        workers.close()


def test_a_feed_that_builds_apart_hands_out_a_run_once_a_builder_built_it():
    """Breaker 54a: compiles that burn their 30 s of CPU held both workers of -j 2 (a compile ran on the
    worker that took the run's first test). Built by a builder thread, a run's tests wait for it and
    no worker does."""
    feed, workers = Feed(builds_apart=True), Workers(1)
    try:
        compiled = handed_in(feed, "compiled", "red", 2)
        assert workers.take(feed, 0) is None  # (not built yet)
        with ThreadPoolExecutor(1) as builder:
            assert builder.submit(feed.take_build).result() is compiled
            feed.built(compiled)
        assert workers.take(feed, 0) == ("compiled", 0)
    finally:
        feed.close()
        workers.close()


def every_builder_compiling(feed: Feed) -> None:
    """Four teams' C++ runs handed in, each taken by one of four general builders (-j 2's 2N), never built."""
    slow = [handed_in(feed, f"slow{n}.cpp", team, 1) for n, team in enumerate(("red", "green", "blue", "gold"))]
    with ThreadPoolExecutor(4) as builders:
        taken = [builders.submit(feed.take_build).result() for _ in slow]
    assert sorted(map(id, taken)) == sorted(map(id, slow))  # all of them compiling


def test_a_python_submission_is_built_while_every_builder_compiles_another_teams():
    """Breaker 55c F1: four teams' compiles, each just under its bounds (120 s), held every builder, and
    another team's trivial Python submission waited 75-120 s for one. The light builder takes only the
    runs whose build takes a moment (Python's), so one is always there for them."""
    feed = Feed(builds_apart=True)
    try:
        every_builder_compiling(feed)
        quick = handed_in(feed, "quick.py", "white", 1)
        handed_in(feed, "later.cpp", "black", 1)
        with ThreadPoolExecutor(1) as light:
            assert light.submit(feed.take_build, True).result() is quick  # (before: no builder free)
            waiting = light.submit(feed.take_build, True)
            time.sleep(0.3)
            assert not waiting.done()  # never a compile: later.cpp waits for a general builder
            feed.close()
            assert waiting.result() is None
    finally:
        feed.close()


def test_a_compiled_submission_is_built_while_every_builder_compiles_another_teams(monkeypatch):
    """Breaker 55c F1: four teams' compiles, each just under its bounds, held every builder for ~120 s, and
    another team's trivial C++ submission waited as long. A spare builder takes the run of a team that has
    had less of the machine than every team whose compile has held a builder SPARE_AFTER_SECONDS, and only
    such a run: never one of a team whose compiles or tests took more."""
    monkeypatch.setattr(feed_module, "SPARE_AFTER_SECONDS", 0.2)
    feed = Feed(builds_apart=True)
    try:
        every_builder_compiling(feed)
        with ThreadPoolExecutor(1) as spare:
            heavy = handed_in(feed, "heavy.cpp", "black", 1)
            feed._loads["black"] = (600_000.0, time.monotonic())  # (ten minutes of the machine lately)
            waiting = spare.submit(feed.take_build, False, True)
            time.sleep(0.6)
            assert not waiting.done()  # black has had more than the teams compiling
            quick = handed_in(feed, "quick.cpp", "white", 1)
            assert waiting.result(timeout=5) is quick  # (before: no builder until a compile ended)
            assert not feed._entries[id(heavy)].building  # (black's waits for a general builder)
    finally:
        feed.close()


def test_a_trivial_ac_is_judged_while_two_other_teams_looping_submissions_are_graded(tmp_path):
    """Breaker 54a, end to end at -j 2: red's and green's looping submissions (every test run: ioi) on
    both workers, and blue's trivial one is judged, and in blue's feed, while both are still graded."""
    site = Site(tmp_path, extra="scoring: ioi\n", problem=many_tests(tmp_path, count=30), jobs=2)
    site.passwords |= {username: password for _, username, password in make_accounts(site.store, [("Green", "green")])}
    site.grader.start()
    try:
        loopers = [number_of(submit(site.client(team), LOOPS)) for team in ("red", "green")]
        for looping in loopers:
            wait_for(lambda: site.grader.live.get(looping, {}).get("done", 0) >= 1, "a looping submission's first test")
        trivial = number_of(submit(site.client("blue"), ACCEPTED))
        wait_for(lambda: any(event["type"] == "judgements" and event["data"]["submission_id"] == str(trivial)
                             for event in feed_of(site, "blue")), "the trivial submission's judgement in blue's feed")
        assert [site.store.submission(looping)["state"] for looping in loopers] == ["queued", "queued"]
    finally:
        site.grader.stop()
    assert site.store.judgement(trivial)["verdict"] == "AC"


def test_a_rejudge_waits_for_new_submissions_and_holds_back_none_of_its_teams(tmp_path):
    """Breaker 54b F4: after the coach rejudged a team's three submissions, the team's new one waited 14 s
    behind them. New submissions go first, whosever; a rejudge in flight does not hold its team's new one."""
    site = Site(tmp_path, jobs=1)
    red, blue = site.team("red"), site.team("blue")
    old = [site.store.add_submission(red, "adder", "python3", "a.py", ACCEPTED, False, 0) for _ in range(2)]
    for number in old:
        site.store.record_judgement(number, time.time(), "AC", None, 1.0, "", [])
    assert site.store.requeue("team_id = ?", red) == 2
    assert site.grader.next_submission() == old[0]  # (nothing new: the rejudge)
    site.grader._in_flight[old[0]] = red
    assert site.grader.next_submission() is None  # (one rejudge per worker at once)
    new_red = site.store.add_submission(red, "adder", "python3", "a.py", ACCEPTED, False, 0)
    new_blue = site.store.add_submission(blue, "adder", "python3", "a.py", ACCEPTED, False, 0)
    assert site.grader.next_submission() == new_red  # (before: red waited for its rejudge to end)
    site.grader._in_flight[new_red] = red
    assert site.grader.next_submission() == new_blue


def test_a_team_sees_its_rejudged_submission_keep_its_verdict_until_the_new_one(tmp_path):
    """Breaker 54b F3: during a rejudge the team's list showed its AC as "queued", then "judging"."""
    from tcjudge.serve.views import submission_view

    site = Site(tmp_path)
    number = site.store.add_submission(site.team("red"), "adder", "python3", "a.py", ACCEPTED, False, 0)
    site.store.record_judgement(number, time.time(), "AC", None, 1.0, "", [])
    site.store.requeue("id = ?", number)
    row = site.store.submission(number)
    seen = {who: submission_view(site.serve, row, caller)["verdict_text"] for who, caller in callers(site).items()}
    assert seen == {"red": "AC", "coach": "queued"}, seen


def callers(site: Site) -> dict:
    from tcjudge.serve.auth import Caller

    return {"red": Caller("red", "team", site.team("red")), "coach": Caller("coach", "coach", None)}


def test_the_coach_sees_unanswered_questions_first_the_oldest_first(tmp_path):
    """Breaker 54b F7: newest first, answered and not mixed, the two oldest unanswered sat at the bottom."""
    from tcjudge.serve.views import clarification_threads

    site = Site(tmp_path)
    red, blue = site.team("red"), site.team("blue")
    first = site.store.add_clarification(red, None, None, None, "first?", 0)
    second = site.store.add_clarification(blue, None, None, None, "second?", 0)
    answered = site.store.add_clarification(red, None, None, None, "third?", 0)
    site.store.add_clarification(None, red, answered, None, "yes", 0)
    site.store.add_clarification(None, None, None, None, "a broadcast", 0)
    coach, team = callers(site)["coach"], callers(site)["red"]
    order = [thread["question"]["text"] if thread["question"] else thread["answers"][0]["text"]
             for thread in clarification_threads(site.serve, coach)]
    assert order == ["first?", "second?", "a broadcast", "third?"], order
    assert first < second
    assert [thread["question"]["text"] if thread["question"] else thread["answers"][0]["text"]
            for thread in clarification_threads(site.serve, team)] == ["a broadcast", "third?", "first?"]
