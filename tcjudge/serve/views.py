"""What a caller sees, made once for the pages and their live streams (pages.py, coach.py): a
submission as its team or the coach may see it, the caller's own rows, a submission's source as
text, the coach's actions that apply now. The caller may see what it is given here: every query is
filtered by its team before (docs/serve.md lists what each role sees).
"""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException

from .auth import Caller
from .grading import every_test
from .contest import LANGUAGE_NAMES
from .state import TEAM_SEES, Serve
from .store import ident

# the verdicts' words, as a submissions table's legend and its cells' titles say them (breaker 54b: "RE",
# "CE", "IE" were abbreviations no page explained); IE costs no penalty (docs/serve.md)
VERDICT_WORDS = {"AC": "accepted", "WA": "wrong answer", "TLE": "time limit exceeded", "MLE": "memory limit exceeded",
                 "RE": "run-time error", "CE": "compile error", "IE": "judging error (the judge's, not yours)"}


def submission_view(serve: Serve, row, caller: Caller, judgement=False) -> dict:
    """What the caller may see of a submission in a list (the caller may see it: checked before), its
    cells' words made here for the pages and their live stream alike; `judgement`: its valid judgement
    when the caller read it already (None: it has none). While it is queued (a rejudge too) its
    figures are the grading's so far, counted as its judgement will count them (grading.on_test); its
    CPU and memory, those of the tests the caller may see the figures of (Serve.measured)."""
    if judgement is False:
        judgement = serve.store.judgement(row["id"])
    # a team sees a rejudged submission keep its verdict until the new one is written, as the coach's
    # rejudge page says (breaker 54b F3: its AC turned "queued", then "judging", for 11 s)
    queued = judgement is None or (row["state"] == "queued" and caller.coach)
    problem = serve.problems.get(row["problem"])
    view = {"id": row["id"], "problem": row["problem"], "problem_letter": serve.letters.get(row["problem"], ""),
            "problem_name": problem.name if problem else row["problem"],
            "language": row["language"], "language_name": LANGUAGE_NAMES.get(row["language"], row["language"]),
            "filename": row["filename"],
            "minute": row["contest_ms"] // 60000, "team_id": row["team_id"], "queued": queued,
            "verdict": judgement["verdict"] if judgement else None, "score": judgement["score"] if judgement else None}
    if queued:
        figures = serve.grader.live.get(row["id"])
        verdict = "judging" if figures else "queued"
    else:
        tests = json.loads(judgement["tests"])
        ran = [t for t in tests if t["verdict"]]
        figures = {"done": len(ran), "total": len(tests), "tests": ran}
        verdict = judgement["verdict"] + ("" if judgement["score"] is None else f" {judgement['score']:g}")
        if judgement["verdict"] in ("CE", "IE") and not ran:
            figures = None  # nothing ran: no figures
    measured = serve.measured(caller, row["problem"], figures["tests"]) if figures else []
    return view | {"verdict_text": verdict, "verdict_words": "" if queued else VERDICT_WORDS.get(view["verdict"], ""),
                   "tests_text": _tests_text(serve, row, caller, figures, view),
                   "cpu_text": f"{round(max(t['cpu_ms'] for t in measured))} ms" if measured else "",
                   "memory_text": f"{max(t['memory_mib'] for t in measured):.1f} MiB" if measured else ""}


def _tests_text(serve: Serve, row, caller: Caller, figures: dict | None, view: dict) -> str:
    """The tests column: tests done of all. A team told no failing test's number (show_failing_test:
    false) on a problem that stops at its first failure is told no count that says it: none while it
    is judged, all of them once accepted, none for a rejection (issue 47: 'WA 10/138' said the failing
    test was the tenth)."""
    if figures is None:
        return ""
    problem = serve.problems.get(row["problem"])
    told = caller.coach or serve.contest.show_failing_test or (problem is not None and every_test(serve.contest, problem))
    if told:
        return f"{figures['done']}/{figures['total']}"
    return f"{figures['total']}/{figures['total']}" if not view["queued"] and view["verdict"] == "AC" else ""


def judgement_view(serve: Serve, row, caller: Caller) -> dict:
    """The judgement's details on a submission's own page: the compiler's message of a CE (the team's
    own source); with show_failing_test, the first failing test's number and verdict; a coach's: every
    test that ran, the first failing one's input, output and value beside the expected answer."""
    judgement = serve.store.judgement(row["id"])
    if judgement is None:
        return {}
    tests = json.loads(judgement["tests"])
    failing = next(((n, t) for n, t in enumerate(tests, 1) if t["verdict"] not in ("AC", None)), None)
    view = {"message": judgement["message"] if caller.coach or judgement["verdict"] == "CE" else ""}
    if failing and (caller.coach or serve.contest.show_failing_test):
        view["failing"] = f"test {failing[0]}" + (f" ({failing[1]['name']})" if caller.coach else "") + \
            f": {failing[1]['verdict']}"
    if caller.coach:
        view["tests"] = [t for t in tests if t["verdict"]]
        view["not_run"] = len(tests) - len(view["tests"])
        view["compared"] = _compared(serve, row, failing[1]) if failing else None
    return view


SHOWN = 2000  # characters of a failing test's input and expected answer on the coach's page


def _compared(serve: Serve, row, failing: dict) -> dict | None:
    """The first failing test as the coach compares it: its input, what the submission answered
    (a program's output, a method's value) and printed (a method's output, a program's standard
    error), and the expected answer. None where the problem has no such test any more."""
    from ..engine.judging import expected_text, input_text

    problem = serve.problems.get(row["problem"])
    test = next((t for t in problem.tests if t.name == failing["name"]), None) if problem else None
    if test is None:
        return None
    return {"name": test.name, "input": input_text(test, SHOWN), "answer": failing.get("returned", ""),
            "printed": failing.get("output", ""), "expected": expected_text(test, SHOWN)}


def visible(serve: Serve, caller: Caller, text: str):
    """The submission numbered `text`, which the caller may see (else 404)."""
    number = ident(text)
    row = serve.store.submission(number) if number is not None else None
    if row is None or not (caller.coach or row["team_id"] == caller.team_id):
        raise HTTPException(404, "no such submission")  # another team's: as if it did not exist
    return row


LISTED = ("s.id, s.team_id, s.problem, s.language, s.filename, s.contest_ms, s.state, t.name AS team, "
          "j.verdict, j.score, j.max_cpu_ms, j.message, j.tests")


def judgement_history(serve: Serve, number: int) -> list[dict]:
    """Every judgement of a submission, oldest first, for the coach (DOMjudge's jury lists every judging:
    breaker 55b F9 saw the latest alone after a rejudge): its verdict, when it ended, whether it counts."""
    return [{"id": row["id"], "verdict": row["verdict"] + ("" if row["score"] is None else f" {row['score']:g}"),
             "ended_ms": int(row["ended"] * 1000), "valid": bool(row["valid"])}
            for row in serve.store.rows("SELECT id, verdict, score, ended, valid FROM judgements WHERE submission_id = ? "
                                        "ORDER BY id", number)]


def own_rows(serve: Serve, caller: Caller, limit: int = -1, team: int | None = None) -> list[tuple]:
    """(submission, its valid judgement or None) of the caller's team (a coach: all, or `team`'s),
    newest first, in one query (no source read)."""
    team = team if caller.coach else caller.team_id
    where = "" if team is None else "WHERE s.team_id = ? "
    rows = serve.store.rows(f"SELECT {LISTED} FROM submissions s JOIN teams t ON t.id = s.team_id LEFT JOIN "
                            f"judgements j ON j.submission_id = s.id AND j.valid = 1 {where}ORDER BY s.id DESC LIMIT ?",
                            *(() if team is None else (team,)), limit)
    return [(row, row if row["verdict"] is not None else None) for row in rows]


def source_text(row) -> str:
    """A submission's source as text: its one file, or each file of its zip under its name."""
    if not row["zipped"]:
        return row["source"].decode("utf-8", "replace")
    from .grading import unzip

    return "\n\n".join(f"--- {name} ---\n{data.decode('utf-8', 'replace')}" for name, data in unzip(row["source"]).items())


def offered(serve: Serve) -> dict[str, str | None]:
    """Each of the coach's contest actions: None where it applies now, else why it does not. Freeze
    while the contest runs and the contestants' scoreboard is live; unfreeze while it is frozen;
    finalize once the contest has ended and every submission is judged (the final results are those
    the feed ends with: a judgement after them would move a final scoreboard); nothing once finalized."""
    clock = serve.clock
    if clock.finalized:
        return dict.fromkeys(("freeze", "unfreeze", "finalize"), "the contest is finalized: its results are final")
    frozen = clock.frozen_since_ms() is not None
    waiting = len(serve.store.queued())
    return {"freeze": "the contest has not started" if not clock.started else "the contest has ended" if clock.ended
            else "the scoreboard is frozen already" if frozen else None,
            "unfreeze": None if frozen else "the scoreboard is not frozen",
            "finalize": "the contest has not ended: finalize it after its end" if not clock.ended
            else f"{waiting} submission(s) wait for their judgement: finalize once they are judged" if waiting else None}


def clarification_threads(serve: Serve, caller: Caller) -> list[dict]:
    """The clarifications the caller sees as threads, the newest first (the coach's unanswered questions
    before them, the oldest first): a question (the coach's: every
    team's; a team's: its own) with the answers to it, and apart each message that answers no
    question the caller sees: a broadcast, and where it answers a question, that question's text
    quoted (a team never saw another team's question, nor its number: issue 47 said 'to question 1')."""
    if caller.coach:
        rows = serve.store.rows("SELECT c.*, t.name AS team FROM clarifications c LEFT JOIN teams t ON t.id = c.from_team "
                                "ORDER BY c.id")
    else:
        rows = serve.store.rows(f"SELECT c.*, NULL AS team FROM clarifications c WHERE {TEAM_SEES} ORDER BY c.id",
                                caller.team_id, caller.team_id)
    questions = {row["id"]: {"question": row, "answers": [], "quoted": None} for row in rows if row["from_team"] is not None}
    threads = list(questions.values())
    for row in rows:
        if row["from_team"] is not None:
            continue
        if row["reply_to"] in questions:
            questions[row["reply_to"]]["answers"].append(row)
            continue
        asked = serve.store.row("SELECT text FROM clarifications WHERE id = ?", row["reply_to"]) if row["reply_to"] else None
        threads.append({"question": None, "answers": [row], "quoted": asked["text"] if asked else None})
    return sorted(threads, key=lambda thread: (
        not (caller.coach and thread["question"] is not None and not thread["answers"]),  # (the coach's: unanswered
        # first, oldest first; breaker 54b F7: the two oldest unanswered sat at the bottom, under answered ones)
        thread["question"]["id"] if caller.coach and thread["question"] is not None and not thread["answers"] else
        -max(row["id"] for row in [thread["question"] or thread["answers"][0], *thread["answers"]])))
