"""A contest file (contest.yaml): its problems, languages, times and scoring, read with the line of
every fault (as problem.yaml is), so that a typo is a `file:line:` message, never a traceback.

The minimal file (issue 36) is `name`, `problems`, `start`, `duration`, `freeze`, `scoring`; the
other keys have defaults (docs/serve.md lists them).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

from ..errors import JudgeInputError
from ..languages import every_language
from ..problems.yamlio import load_mapping
from ..record import record

# CLICS language ids (issue 36: contracts) -> the file extensions that pick them: every language of the
# judge's that an extension picks (languages.REGISTRY), under its Kattis code, which CLICS shares (PyPy 3
# has no extension of its own: a .py file runs on it where its #! line or its package says)
LANGUAGE_IDS = {language.kattis_code: language.extensions for language in every_language() if language.extensions}
LANGUAGE_NAMES = {language.kattis_code: language.title for language in every_language()} | {"python3": "Python 3"}
SCORINGS = ("icpc", "ioi")
KEYS = {"name", "problems", "start", "duration", "freeze", "scoring", "languages", "penalty", "show_failing_test",
        "id", "medals"}
MEDALS = ("gold", "silver", "bronze")
_SPAN = re.compile(r"^\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*m(?:in)?)?\s*(?:(\d+)\s*s)?\s*$")


@record
class Contest:
    path: Path
    id: str  # CLICS id: the file's stem, unless `id:` says
    name: str
    problems: list[str]  # as written: slugs under --problems, or paths to packages
    problem_lines: list[int]
    start: datetime | None  # None: "now", fixed when the server first starts (kept in its store)
    duration: timedelta
    freeze: timedelta
    scoring: str
    languages: list[str]
    penalty: int
    show_failing_test: bool
    medals: dict[str, int] | None = None  # places per medal (gold, silver, bronze): the awards' medals

    def problem_path(self, index: int, problems_dir: Path) -> Path:
        """The folder of the contest's `index`th problem: a slug under the problems folder, or a path
        (relative to the contest file's folder)."""
        written = self.problems[index]
        if "/" in written or written.startswith("."):
            return (self.path.parent / written).resolve()
        return problems_dir / written


def load_contest(path: Path) -> Contest:
    """Read and check a contest file; JudgeInputError names the file and line of the first fault."""
    path = Path(path)
    if not path.is_file():
        raise JudgeInputError("no such contest file", path)
    data, lines = load_mapping(path)

    def fault(message: str, key: str):
        return JudgeInputError(message, path, lines.get(key))

    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise fault(f"unknown key {unknown[0]!r} (known: {', '.join(sorted(KEYS))})", unknown[0])
    for key in ("name", "problems", "duration"):
        if key not in data:
            raise JudgeInputError(f"missing key {key!r}", path)
    name = data["name"]
    if not isinstance(name, str) or not name.strip():
        raise fault("name: expected a non-empty text", "name")
    problems = data["problems"]
    if not isinstance(problems, list) or not problems or not all(isinstance(p, str) and p for p in problems):
        raise fault("problems: expected a list of problem slugs or package paths", "problems")
    if len(set(problems)) != len(problems):
        raise fault("problems: a problem is listed twice", "problems")
    contest_id = str(data.get("id", path.stem))
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,36}", contest_id):
        raise fault("id: letters, digits, '_', '.', '-' only (at most 36)", "id" if "id" in data else "name")
    duration = _span(data["duration"], "duration", fault)
    freeze = _span(data.get("freeze", 0), "freeze", fault)
    if duration <= timedelta(0):
        raise fault("duration: must be more than 0", "duration")
    if freeze > duration:
        raise fault("freeze: longer than the contest", "freeze")
    scoring = data.get("scoring", "icpc")
    if scoring not in SCORINGS:
        raise fault(f"scoring: expected one of {', '.join(SCORINGS)}", "scoring")
    languages = data.get("languages", list(LANGUAGE_IDS))
    if not isinstance(languages, list) or not languages:
        raise fault("languages: expected a list of language ids", "languages")
    for index, language in enumerate(languages):
        if language not in LANGUAGE_IDS:
            raise JudgeInputError(f"languages: unknown language id {language!r} (known: {', '.join(LANGUAGE_IDS)})",
                                  path, lines.get(f"languages.{index}", lines.get("languages")))
    penalty = data.get("penalty", 20)
    if not isinstance(penalty, int) or isinstance(penalty, bool) or penalty < 0:
        raise fault("penalty: expected whole minutes, 0 or more", "penalty")
    show = data.get("show_failing_test", False)
    if not isinstance(show, bool):
        raise fault("show_failing_test: expected true or false", "show_failing_test")
    return Contest(path, contest_id, name.strip(), problems, [lines.get(f"problems.{i}", lines.get("problems"))
                                                              for i in range(len(problems))],
                   _start(data.get("start", "now"), fault), duration, freeze, scoring, languages, penalty, show,
                   _medals(data.get("medals"), fault))


def _medals(value, fault) -> dict[str, int] | None:
    """`medals: {gold: 4, silver: 4, bronze: 4}`: how many places each medal goes to (none: no medals)."""
    if value is None:
        return None
    if not isinstance(value, dict) or not value or set(value) - set(MEDALS) or not all(
            isinstance(count, int) and not isinstance(count, bool) and count >= 0 for count in value.values()):
        raise fault("medals: expected places per medal, such as {gold: 4, silver: 4, bronze: 4}", "medals")
    return {medal: value.get(medal, 0) for medal in MEDALS}


def _span(value, key: str, fault) -> timedelta:
    """`2h`, `30m`, `1h30m`, `90s`, or a number of minutes."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return timedelta(minutes=value)
    match = _SPAN.match(str(value)) if isinstance(value, str) and value.strip() else None
    if not match or not any(match.groups()):
        raise fault(f"{key}: expected a time span such as 2h, 30m, 1h30m or 90s", key)
    hours, minutes, seconds = (int(part or 0) for part in match.groups())
    return timedelta(hours=hours, minutes=minutes, seconds=seconds)


def _start(value, fault) -> datetime | None:
    if value == "now":
        return None
    if isinstance(value, datetime):  # YAML reads an unquoted ISO time as one
        when = value
    else:
        try:
            when = datetime.fromisoformat(str(value))
        except ValueError:
            raise fault("start: expected now or an ISO 8601 time (2026-03-01T10:00:00+01:00)", "start") from None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


def span_text(span: timedelta) -> str:
    """A span as CLICS writes it: h:mm:ss(.uuu)."""
    total = int(span.total_seconds())
    return f"{total // 3600}:{total % 3600 // 60:02}:{total % 60:02}.000"


def language_of_name(filename: str, allowed: list[str]) -> str | None:
    """The contest language id of a file name by its extension (None: not one of the contest's)."""
    suffix = Path(filename).suffix.lower()
    return next((lid for lid in allowed if suffix in LANGUAGE_IDS[lid]), None)


def store_path(given: Path | None, history: Path, contest: Contest) -> Path:
    """The contest's store: --store, else reports/contest-<id>.sqlite beside the run history."""
    return given if given is not None else Path(history).parent / f"contest-{contest.id}.sqlite"
