"""The coach's exports of the results (issue 47: results.csv was the submission list, with unrounded
floats, and the standings were nowhere but the page): the standings as results.csv, a row per team as
DOMjudge's scoreboard export has them (rank, team, solved and penalty or score, and each problem's
tries, pending submissions and time); the CLICS awards (awards.json: the winner, the medals where
the contest file sets them, the first to solve each problem); and every submission, submissions.csv.
They are the coach's view: nothing frozen. A cell that a spreadsheet would take for a formula (a
team named `=HYPERLINK(...)`) starts with a quote (csvfiles.py).
"""

from __future__ import annotations

from .contest import MEDALS
from .csvfiles import csv_text
from .scoreboard import standings
from .store import reltime


def label(index: int) -> str:
    """A problem's letter, A to Z, then its number (the API's `label`, the exports' columns)."""
    return chr(ord("A") + index) if index < 26 else str(index + 1)


def number(value: float | None) -> str:
    """A figure as a person reads it: 12, 33.333 (a score is kept to 3 decimals); none: empty."""
    return "" if value is None else f"{round(value, 3):g}"


def awards(serve) -> list[dict]:
    """The CLICS awards as the coach sees them now (final once the contest is): `winner`, the leader(s)
    (empty while no team has scored); `gold-medal`, `silver-medal`, `bronze-medal` where the contest file
    sets `medals`, the next so many places by rank among the teams that scored (teams tied across a
    medal's last place all have it, and take places of the next: DOMjudge's); `first-to-solve-<problem>`,
    the team whose accepted submission came first, none while an earlier submission is still being judged."""
    board = standings(serve.store, serve.contest, serve.clock, list(serve.problems), True)
    scored = [row for row in board["rows"] if (row["score"] > 0 if board["scoring"] == "ioi" else row["solved"] > 0)]
    found = [{"id": "winner", "citation": "Contest winner",
              "team_ids": [str(row["team_id"]) for row in scored if row["rank"] == 1]}]
    first_place = 1
    for medal in MEDALS if serve.contest.medals else ():
        count = serve.contest.medals.get(medal, 0)
        found.append({"id": f"{medal}-medal", "citation": f"{medal.capitalize()} medal winner",
                      "team_ids": [str(row["team_id"]) for row in scored if first_place <= row["rank"] < first_place + count]})
        first_place += count
    for index, slug in enumerate(serve.problems):
        firsts = [(row["cells"][index]["solved_ms"], row["team_id"]) for row in board["rows"] if row["cells"][index]["first"]]
        if firsts and _judging_before(serve, slug, firsts[0][0]):
            firsts = []  # ("This implies that no unjudged submission made earlier remains")
        found.append({"id": f"first-to-solve-{slug}", "citation": f"First to solve problem {label(index)}",
                      "team_ids": [str(team) for _, team in firsts]})
    return found


def _judging_before(serve, slug: str, contest_ms: int) -> bool:
    """Whether a submission of the problem made before `contest_ms` is still waiting for its verdict."""
    return serve.store.row("SELECT 1 FROM submissions s WHERE problem = ? AND contest_ms >= 0 AND contest_ms < ? AND "
                           "NOT EXISTS (SELECT 1 FROM judgements j WHERE j.submission_id = s.id AND j.valid = 1)",
                           slug, contest_ms) is not None


def results_csv(serve) -> str:
    """The standings, a row per team: rank, team_id, team, awards (their ids), solved and penalty
    (icpc) or score (ioi), then each problem's (by its letter) tries (judged, as the scoreboard counts
    them), pending submissions, the minute of its first AC or of its best score, and its score (ioi)."""
    board = standings(serve.store, serve.contest, serve.clock, list(serve.problems), True)
    ioi = board["scoring"] == "ioi"
    won: dict[str, list[str]] = {}
    for award in awards(serve):
        for team in award["team_ids"]:
            won.setdefault(team, []).append(award["id"])
    per_problem = ("tries", "pending", "time") + (("score",) if ioi else ())
    header = ["rank", "team_id", "team", "awards"] + (["score"] if ioi else ["solved", "penalty"])
    header += [f"{label(index)} {what}" for index in range(len(serve.problems)) for what in per_problem]
    rows = []
    for row in board["rows"]:
        line = [row["rank"], row["team_id"], row["name"], " ".join(won.get(str(row["team_id"]), []))]
        line += [number(row["score"])] if ioi else [row["solved"], row["penalty"]]
        for cell in row["cells"]:
            when = cell["score_ms"] if ioi else cell["solved_ms"]
            line += [cell["tries"], cell["pending"], "" if when is None else when // 60000]
            line += [number(cell["score"])] if ioi else []
        rows.append(line)
    return csv_text(header, rows)


def submission_rows(serve) -> list[dict]:
    """Every submission with its latest verdict: its contest time as h:mm:ss, its problem's letter,
    its score and its slowest test's CPU in whole milliseconds (a figure, not a float's digits)."""
    letters = {slug: label(index) for index, slug in enumerate(serve.problems)}
    rows = serve.store.rows("SELECT s.id, t.name AS team, s.problem, s.language, s.contest_ms, j.verdict, j.score, "
                            "j.max_cpu_ms FROM submissions s JOIN teams t ON t.id = s.team_id LEFT JOIN judgements j "
                            "ON j.submission_id = s.id AND j.valid = 1 ORDER BY s.id")
    return [{"id": row["id"], "team": row["team"], "problem": letters.get(row["problem"], row["problem"]),
             "problem_id": row["problem"], "language": row["language"], "contest_time": reltime(row["contest_ms"])[:-4],
             "verdict": row["verdict"] or "", "score": number(row["score"]),
             "max_cpu_ms": "" if row["max_cpu_ms"] is None else round(row["max_cpu_ms"])} for row in rows]


def submissions_csv(serve) -> str:
    rows = submission_rows(serve)
    header = ["id", "team", "problem", "problem_id", "language", "contest_time", "verdict", "score", "max_cpu_ms"]
    return csv_text(header, [[row[key] for key in header] for row in rows])
