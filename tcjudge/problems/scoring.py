"""Scoring problems of Kattis/ICPC packages: what one test scores, and how test groups add it up.

Two models, as the package formats define them (testgroups.py reads the settings into them):

- the legacy one (problemtools; `testdata.yaml` in every folder of data/, inherited downwards): every
  folder is a group graded by the default grader: `grader_flags` pick the verdict (`worst_error`,
  `first_error`, `always_accept`, with `accept_if_any_accepted`) and the score (`sum`, `avg`, `min`,
  `max`), `ignore_sample` drops data/sample at the top; `on_reject: break` stops a group at its first
  rejected item; an accepted test scores `accept_score` (1) or its validator's `score.txt`, a rejected
  one `reject_score` (0); a group's score must lie in its `range`. The submission's score is data/'s
  when its verdict is AC, else 0 ("for non-accepted verdicts the score is ignored"). A group with
  `grading: custom` is aggregated by the package's grader program instead (Group.grader, grader.py).
- the 2025-09 one (`test_group.yaml`: `max_score`, `score_aggregation`, `require_pass`, or the drafts'
  `scoring: {score, aggregation, require_pass}`): data/secret and its groups score `sum`, `min` or
  `pass-fail`; a test's maximum is its group's (min) or its share of it (sum); an accepted test
  scores its maximum, `score.txt`, or `score_multiplier.txt` times its maximum; samples score
  nothing. The submission's score is secret's; its verdict is a pass-fail one.

Everything here is plain data and arithmetic (but a custom grader, which Group.grader runs): the
engine asks `TestScore.score` once per test, the results ask `Grading.grade` once per solution.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path
from typing import Callable, Mapping

from ..record import field, record
from ..text import format_score
from ..verdicts import Verdict

LEGACY, GROUPS = "legacy", "2025-09"
WORST_FIRST = (Verdict.IE, Verdict.RE, Verdict.MLE, Verdict.TLE, Verdict.WA)  # the default grader's worst_error order
SLACK = 1e-9  # a score this far past a bound is rounding, not a fault


class GraderFailed(Exception):
    """A group's custom grader (grader.py) gave no verdict: the problem's fault, with the reason."""


Aggregate = Callable[[list[tuple[Verdict, float]]], tuple[Verdict, float]]  # a custom grader; GraderFailed


@record(frozen=True)
class ScoreRange:
    """An expected score: `partially_accepted` (below the best score of the problem's range, as the
    format says), or what a package's submissions.yaml asks (`score: [low, high]`, both inclusive)."""

    low: float = -math.inf
    high: float = math.inf
    low_inclusive: bool = True
    high_inclusive: bool = True

    def contains(self, score: float | None) -> bool:
        if score is None:
            return False
        above = score >= self.low - SLACK if self.low_inclusive else score > self.low + SLACK
        below = score <= self.high + SLACK if self.high_inclusive else score < self.high - SLACK
        return above and below

    def __str__(self) -> str:
        return (f"score in {'[' if self.low_inclusive else '('}{format_score(self.low)}, "
                f"{format_score(self.high)}{']' if self.high_inclusive else ')'}")

    def to_json(self) -> dict:
        return {"low": None if math.isinf(self.low) else self.low, "high": None if math.isinf(self.high) else self.high,
                "low_inclusive": self.low_inclusive, "high_inclusive": self.high_inclusive}


@record(frozen=True)
class TestScore:
    """How one test of a scoring problem is scored, bound to its TestCase at load.

    mode: "legacy" (accept_score / reject_score), "bounded" (2025-09: `maximum` is the test's share),
    "unbounded" (2025-09: score.txt required), "unscored" (a 2025-09 pass-fail group: no score files
    allowed) or "sample" (2025-09 samples: score files ignored)."""

    mode: str
    maximum: float = 1.0  # legacy: accept_score
    reject: float = 0.0  # legacy: reject_score; 0 in 2025-09
    custom: str = "allowed"  # may the validator write score.txt: "allowed", "required" or "forbidden"

    def score(self, accepted: bool, written: float | None, multiplier: float | None) -> tuple[float | None, str]:
        """(the test's score, or None when it scores nothing; a judge fault in the validator's score
        files, or "") for a test that was `accepted` or not, with what its validator wrote."""
        if self.mode == "sample":
            return None, ""
        if not accepted:
            return (None if self.mode == "unscored" else self.reject), ""
        if multiplier is not None:
            if self.mode != "bounded":
                return None, "the validator wrote score_multiplier.txt for a test without a bounded maximum score"
            if not 0 <= multiplier <= 1:
                return None, f"score_multiplier.txt holds {multiplier:g}, not a number between 0 and 1"
            return multiplier * self.maximum, ""
        if written is not None:
            if self.mode == "unscored" or self.custom == "forbidden":
                return None, ("the validator wrote score.txt, which this problem does not allow (a legacy "
                              "package allows it with validation: custom score; 2025-09: not in a pass-fail group)")
            if self.mode == "bounded" and written > self.maximum + SLACK:
                return None, f"score.txt holds {written:g}, more than the test's maximum {format_score(self.maximum)}"
            if self.mode != "legacy" and written < 0:
                return None, f"score.txt holds {written:g}, a negative score"
            return written, ""
        if self.custom == "required" or self.mode == "unbounded":
            return None, "the validator accepted without writing score.txt, which this problem requires"
        return (None if self.mode == "unscored" else self.maximum), ""


@record
class Group:
    """A test group: its items (subgroups and test names, in order) and how it grades them."""

    name: str  # its path under data/ ("" for data/ itself)
    items: list = field(default_factory=list)  # Group | str
    score_mode: str = "sum"  # sum, avg, min, max (legacy), pass-fail (2025-09)
    verdict_mode: str = "worst_error"  # worst_error, first_error, always_accept
    any_accepted: bool = False  # accept_if_any_accepted
    ignore_sample: bool = False
    stop_on_reject: bool = True  # on_reject: break
    low: float = -math.inf  # legacy: range; 2025-09: 0 and max_score
    high: float = math.inf
    full: float | None = None  # 2025-09 pass-fail: the score when every test is accepted
    require_pass: tuple[str, ...] = ()
    where: Path | None = None  # the settings file that configured it, for messages
    grader: Aggregate | None = None  # legacy grading: custom: the package's grader instead of the default one

    @property
    def maximum(self) -> float | None:
        return None if math.isinf(self.high) else self.high


@record(frozen=True)
class GroupScore:
    name: str
    verdict: Verdict
    score: float
    maximum: float | None

    def to_json(self) -> dict:
        return {"name": self.name, "verdict": str(self.verdict), "score": self.score, "max": self.maximum}


@record
class Scored:
    """One solution's grading: its total, each group's score, and a judge fault (a score the
    problem's own settings forbid), if any."""

    total: float
    maximum: float | None
    verdict: Verdict | None  # legacy: the grader's verdict for the solution; 2025-09: None (pass-fail rules)
    groups: list[GroupScore] = field(default_factory=list)
    fault: str = ""
    read: set[str] = field(default_factory=set)  # the tests whose results the grading read (on_reject: break)

    def to_json(self) -> dict:
        return {"total": self.total, "max": self.maximum, "groups": [g.to_json() for g in self.groups]} | (
            {"fault": self.fault} if self.fault else {})


Outcomes = Mapping[str, tuple[Verdict, float | None]]  # by test name: the tests that ran


@record
class Grading:
    """A scoring problem's test groups (the root: data/ in the legacy model, data/secret in 2025-09)."""

    root: Group
    model: str = LEGACY
    objective: str = "max"  # legacy problem.yaml grading.objective

    def grade(self, outcomes: Outcomes) -> Scored:
        scored = Scored(0.0, self.root.maximum, None)
        passed: dict[str, bool] = {"sample": all(v is Verdict.AC for name, (v, _) in outcomes.items()
                                                 if name.startswith("sample/"))}
        top = _grade(self.root, outcomes, scored, passed)
        if top is None:  # none of its tests ran (grade --examples)
            return scored
        verdict, score = top
        scored.groups.pop()  # the root's own: the total stands for it
        if self.model == LEGACY:
            scored.verdict = verdict
            scored.total = score if verdict is Verdict.AC else 0.0
        else:
            scored.total = score
        return scored

    def unread(self) -> Unread | None:
        """What will track the tests this grading will not read (None: no group stops at a rejection)."""
        return Unread(self.root) if _breaks(self.root) else None

    def partially_accepted(self) -> ScoreRange:
        """The score a partially accepted submission must get: any but the best of the range."""
        if self.objective == "min":
            return ScoreRange(self.root.low, self.root.high, low_inclusive=False)
        return ScoreRange(max(self.root.low, 0.0) if self.model == GROUPS else self.root.low, self.root.high,
                          high_inclusive=False)


class Unread:
    """The tests a grading will not read, as their rejections come in: those after a rejected item of a
    group that stops at its first (on_reject: break), as _grade reads them. The engine does not run
    them, as problemtools does not (breaker 48: so24/kopafika's groups took 21 minutes to run tests no
    grading read). A rejected test rejects the groups around it while each surely rejects (_rejects)."""

    def __init__(self, root: Group):
        self._chains: dict[str, list[tuple[Group, int]]] = {}  # a test's groups, innermost first, and its item's place
        self._first: dict[int, int] = {}  # id(group): the place of its first rejected item
        self._walk(root, [])

    def _walk(self, group: Group, outer: list[tuple[Group, int]]) -> None:
        for place, item in enumerate(group.items):
            chain = [(group, place), *outer]
            if isinstance(item, Group):
                self._walk(item, chain)
            else:
                self._chains[item] = chain

    def reject(self, name: str) -> None:
        for group, place in self._chains.get(name, ()):
            if group.stop_on_reject and place < self._first.get(id(group), math.inf):
                self._first[id(group)] = place
            if not _rejects(group):
                break

    def skips(self, name: str) -> bool:
        return any(place > self._first.get(id(group), math.inf) for group, place in self._chains.get(name, ()))


def _breaks(group: Group) -> bool:
    return group.stop_on_reject or any(_breaks(item) for item in group.items if isinstance(item, Group))


def _rejects(group: Group) -> bool:
    """Whether the group's verdict is a rejection whenever one of its items is (the default grader's
    worst_error and first_error; not a custom grader, accept_if_any_accepted, always_accept, or
    ignore_sample, whose verdict is its last item's)."""
    return (group.grader is None and not group.any_accepted and group.verdict_mode != "always_accept"
            and not group.ignore_sample)


def _grade(group: Group, outcomes: Outcomes, scored: Scored, passed: dict[str, bool]) -> tuple[Verdict, float] | None:
    """The (verdict, score) of one group from its items that ran (None: none ran), recorded in
    `scored.groups` after its own subgroups; the first fault in scored.fault."""
    results: list[tuple[Verdict, float]] = []
    for item in group.items:
        if isinstance(item, Group):
            result = _grade(item, outcomes, scored, passed)
        else:
            found = outcomes.get(item)
            result = None if found is None else (found[0], found[1] or 0.0)
            if result is not None:
                scored.read.add(item)
        if result is None:
            continue
        results.append(result)
        if result[0] is not Verdict.AC and group.stop_on_reject:
            break
    if not results:
        return None
    try:
        verdict, score = (group.grader or functools.partial(_aggregate, group))(results)
    except GraderFailed as err:
        scored.fault = scored.fault or f"group {group.name or 'data'}: {err}"
        verdict, score = Verdict.IE, 0.0
    passed[group.name] = all(v is Verdict.AC for v, _ in results)
    unmet = [name for name in group.require_pass if not passed.get(name, False)]
    if unmet:
        verdict, score = (verdict if verdict is not Verdict.AC else Verdict.WA), 0.0
    if not group.low - SLACK <= score <= group.high + SLACK and not scored.fault:
        where = f" ({group.where.name})" if group.where else ""
        scored.fault = (f"the score {format_score(score)} of group {group.name or 'data'} is outside its range "
                        f"[{format_score(group.low)}, {format_score(group.high)}]{where}")
    scored.groups.append(GroupScore(group.name or "data", verdict, score, group.maximum))
    return verdict, score


def _aggregate(group: Group, results: list[tuple[Verdict, float]]) -> tuple[Verdict, float]:
    """The default grader (problemtools' default_grader), and 2025-09's pass-fail aggregation: the
    group's (verdict, score) from its `results`."""
    if group.ignore_sample:
        results = results[-1:]  # data/'s items are sample, secret: the last one is secret
    verdicts = [v for v, _ in results]
    scores = [s for _, s in results]
    if group.any_accepted and Verdict.AC in verdicts:
        verdict = Verdict.AC
    elif group.verdict_mode == "always_accept":
        verdict = Verdict.AC
    elif group.verdict_mode == "first_error":
        verdict = next((v for v in verdicts if v is not Verdict.AC), Verdict.AC)
    else:
        verdict = next((worst for worst in WORST_FIRST if worst in verdicts), Verdict.AC)
    if group.score_mode == "pass-fail":
        score = (group.full or 0.0) if all(v is Verdict.AC for v in verdicts) else 0.0
    elif group.score_mode == "avg":
        score = sum(scores) / len(scores)
    else:
        score = {"sum": sum, "min": min, "max": max}[group.score_mode](scores)
    return verdict, score
