"""What a stored solution is expected to get, and whether a result meets it.

Our own folders expect one verdict (solutions/<slug>/wrong_answer/ -> WA): the solution's verdict
must be it. A Kattis/ICPC package says more, in the 2025-09 format's terms: each requirement has a
`permitted` set (every test that ran must get one of these) and a `required` set (at least one test
must), optionally for a subset of the tests only (a glob over test names such as `secret/group1`);
its submissions/ folders bring the format's defaults (`rejected/`: at least one test is not
accepted; `brute_force/`: never a wrong answer, but at least one run-time error or time-out),
`submissions/submissions.yaml` adds or overrides requirements by glob, and a DOMjudge/BAPCtools
`@EXPECTED_RESULTS@: ...` comment in the source names the verdicts the submission may get.

Scores: `Expectation.score` (the whole submission) is the inclusive range submissions.yaml gives,
checked by the results against the total; a `Requirement.score` on a group of tests is checked here
against that group's score (`Expectation.score_mismatch`). A computed time limit asks which tests of
a submission bound it (`Expectation.time_limit_tests`), rule by rule, group rules too.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Mapping, Sequence, TypeVar

from ..errors import JudgeInputError
from ..record import record
from ..verdicts import Verdict
from ..text import format_score
from .scoring import ScoreRange
from .yamlio import load_mapping

TEST_VERDICTS = frozenset({Verdict.AC, Verdict.WA, Verdict.TLE, Verdict.RE})  # the format's AC, WA, TLE, RTE
SPEC_NAMES = {"AC": Verdict.AC, "WA": Verdict.WA, "TLE": Verdict.TLE, "RTE": Verdict.RE}
# @EXPECTED_RESULTS@ names (DOMjudge's and BAPCtools'), and our own short ones; upper case
TAG_NAMES = SPEC_NAMES | {
    "RE": Verdict.RE, "CE": Verdict.CE,
    "ACCEPTED": Verdict.AC, "CORRECT": Verdict.AC,
    "WRONG_ANSWER": Verdict.WA, "WRONG-ANSWER": Verdict.WA, "NO-OUTPUT": Verdict.WA,
    "TIME_LIMIT_EXCEEDED": Verdict.TLE, "TIMELIMIT": Verdict.TLE,
    "RUN_TIME_ERROR": Verdict.RE, "RUN-ERROR": Verdict.RE, "RUN_ERROR": Verdict.RE,
    "COMPILER-ERROR": Verdict.CE, "COMPILE_ERROR": Verdict.CE,
    # DOMjudge's; the judge counts standard output past the problem's output limit as WA
    "OUTPUT-LIMIT": Verdict.WA, "OUTPUT_LIMIT": Verdict.WA,
}
TAG = re.compile(r"@EXPECTED_RESULTS@:[ \t]*([^\n\r]*)", re.IGNORECASE)
TAG_READ = 64 * 1024  # the tag is looked for in each source file's first 64 KiB
# submissions/ folders and what the format (2025-09) expects of each; the first four are the legacy ones
DEFAULTS = {
    "accepted": ({Verdict.AC}, TEST_VERDICTS),
    "wrong_answer": ({Verdict.AC, Verdict.WA}, {Verdict.WA}),
    "time_limit_exceeded": ({Verdict.AC, Verdict.TLE}, {Verdict.TLE}),
    "run_time_error": ({Verdict.AC, Verdict.RE}, {Verdict.RE}),
    "rejected": (TEST_VERDICTS, {Verdict.WA, Verdict.TLE, Verdict.RE}),
    "brute_force": ({Verdict.AC, Verdict.RE, Verdict.TLE}, {Verdict.RE, Verdict.TLE}),
}
# The legacy format's words for its folders, where they differ: time_limit_exceeded/ "May also give wrong
# answer but not crash for any test file", run_time_error/ "Crashes for some test file" (nothing else said)
LEGACY_DEFAULTS = DEFAULTS | {
    "time_limit_exceeded": ({Verdict.AC, Verdict.WA, Verdict.TLE}, {Verdict.TLE}),
    "run_time_error": (TEST_VERDICTS, {Verdict.RE}),
}
# Other names authors file the same folders under (archives, BAPCtools' and DOMjudge's verdict names),
# lower case with '-' as '_': read as the format's folder. (A folder in none of these is not graded.)
FOLDER_ALIASES = {
    "runtime_error": "run_time_error", "run_time_exception": "run_time_error", "runtime_exception": "run_time_error",
    "run_error": "run_time_error", "rte": "run_time_error", "re": "run_time_error",
    "timelimit": "time_limit_exceeded", "time_limit": "time_limit_exceeded", "tle": "time_limit_exceeded",
    "wrong": "wrong_answer", "wa": "wrong_answer", "correct": "accepted", "ac": "accepted",
    "brute": "brute_force", "bruteforce": "brute_force", "reject": "rejected",
}
LEGACY_FOLDERS = ("accepted", "wrong_answer", "time_limit_exceeded", "run_time_error")  # DOMjudge ignores tags there
RULE_KEYS = {"permitted", "required", "score", "message", "use_for_time_limit"}
OTHER_KEYS = {"language", "entrypoint", "authors", "model_solution"}  # read by the format's tools, not by checks
SUBMISSIONS_FILE = "submissions.yaml"
Named = TypeVar("Named")  # a test: anything with a `name`
UNTIMED = frozenset({Verdict.TLE, Verdict.CE, Verdict.IE})  # a run that bounds a time limit from below and got one: no limit


@record(frozen=True)
class Requirement:
    """One rule of the format: every test it covers that ran gets a verdict in `permitted`, and at
    least one gets one in `required`. `tests` is a glob over test names and their groups ("" covers
    every test); `origin` says where the rule comes from, for messages."""

    permitted: frozenset[Verdict]
    required: frozenset[Verdict]
    origin: str
    tests: str = ""
    message: str = ""  # must appear in at least one covered test's message (the validator's judgemessage)
    score: tuple[float, float] | None = None  # inclusive: the submission's (tests ""), else its test group's
    use_for_time_limit: bool | str | None = None  # None: as the sets say; False; "lower"; "upper"

    def mismatch(self, tests: list[tuple[str, Verdict | None, str]]) -> str | None:
        covered = [(name, verdict, message) for name, verdict, message in tests
                   if verdict is not None and covers(self.tests, name)]
        where = f" of {self.tests}" if self.tests else ""
        for name, verdict, _ in covered:
            if verdict not in self.permitted:
                return f"{name} got {spoken(verdict)}, but {self.origin} permits only {names(self.permitted)}"
        if not any(verdict in self.required for _, verdict, _ in covered):
            return f"no test{where} got {names(self.required, ' or ')}, as {self.origin} requires"
        if self.message and not any(self.message in message for _, _, message in covered):
            return f"no test{where} said {self.message!r}, as {self.origin} requires"
        return None

    @property
    def time_limit_role(self) -> str | None:
        """"lower" when the times of the tests it covers bound the time limit from below (they may
        not time out), "upper" when from above (one must), as the format's time limit inference says."""
        if self.use_for_time_limit in ("lower", "upper"):
            return self.use_for_time_limit
        if self.use_for_time_limit is False:
            return None
        if Verdict.TLE not in self.permitted:
            return "lower"
        return "upper" if self.required == {Verdict.TLE} else None


@record(frozen=True)
class Expectation:
    """What a stored solution must get: `final`, the verdicts its grade may be (None: any), and the
    `requirements` on its tests. `label` is how tables show it ("WA", "AC/WA", "TLE/RE")."""

    label: str
    final: frozenset[Verdict] | None = None
    requirements: tuple[Requirement, ...] = ()

    @classmethod
    def of(cls, verdict: Verdict) -> Expectation:
        """Our own folders' expectation: exactly this verdict."""
        return cls(str(verdict), frozenset({verdict}))

    @property
    def verdict(self) -> Verdict | None:
        """The one verdict expected, when one is (an expected set or a rule on test groups: None): AC, or
        the one failing verdict required where AC and it are permitted (a legacy run_time_error/ permits more)."""
        if self.final is not None:
            return next(iter(self.final)) if len(self.final) == 1 else None
        if len(self.requirements) != 1 or self.requirements[0].tests:
            return None
        permitted, required = self.requirements[0].permitted, self.requirements[0].required
        if permitted == {Verdict.AC}:
            return Verdict.AC
        failing = required - {Verdict.AC}
        return next(iter(failing)) if len(failing) == 1 and failing | {Verdict.AC} <= permitted else None

    @property
    def allows_accepted(self) -> bool:
        """Whether passing every test meets it."""
        if self.final is not None and Verdict.AC not in self.final:
            return False
        return all(Verdict.AC in r.permitted and (r.tests or Verdict.AC in r.required) for r in self.requirements)

    @property
    def score(self) -> tuple[float, float] | None:
        """The inclusive score range the whole submission must get (submissions.yaml `score`), or None."""
        return next((r.score for r in self.requirements if r.score is not None and not r.tests), None)

    @property
    def every_test(self) -> bool:
        """A requirement on a group of tests can be judged only once every test has run."""
        return any(r.tests for r in self.requirements)

    def time_limit_tests(self, role: str, tests: Sequence[Named]) -> list[Named]:
        """The tests whose running times bound a computed time limit as `role` says ("lower": none of
        them may time out; "upper": one must): those a rule of that role covers ([]: none)."""
        if self.final is not None and not self.requirements:
            return list(tests) if {Verdict.AC: "lower", Verdict.TLE: "upper"}.get(self.verdict) == role else []
        rules = [r for r in self.requirements if r.time_limit_role == role]
        return [test for test in tests if any(covers(r.tests, test.name) for r in rules)]

    def score_mismatch(self, groups: Mapping[str, float] | None) -> str | None:
        """Why the test groups' scores (by group name; None: the problem scores nothing) break a rule's
        `score` on a group; None when none does. A rule covers the groups its glob names exactly."""
        for r in self.requirements:
            if r.score is None or not r.tests:
                continue
            wanted = ScoreRange(*r.score)
            if groups is None:
                return f"{r.origin} asks {r.tests} for a {wanted}, but the problem is not scored"
            named = {name: score for name, score in groups.items() if any(x.fullmatch(name) for x in _compiled(r.tests))}
            if not named:
                return f"no test group is {r.tests}, whose score {r.origin} gives"
            for name, score in named.items():
                if not wanted.contains(score):
                    return f"group {name} scored {format_score(score)}, but {r.origin} asks a {wanted}"
        return None

    def mismatch(self, verdict: Verdict, tests: list[tuple[str, Verdict | None, str]]) -> str | None:
        """Why a solution that got `verdict`, with these tests (name, verdict or None when not run,
        message), does not meet the expectation: None when it does, "" when its verdict alone is
        not one expected ("expected AC, got WA" says it all)."""
        if self.final is not None and verdict not in self.final:
            return ""
        if verdict is Verdict.IE:
            return "an internal error decides nothing"
        if verdict is Verdict.CE:
            return None if self.final is not None else "does not compile"
        return next((why for r in self.requirements if (why := r.mismatch(tests))), None)

    def __str__(self) -> str:
        return self.label


def spoken(verdict: Verdict) -> str:
    """A verdict in the format's words (RE is its RTE)."""
    return "RTE" if verdict is Verdict.RE else str(verdict)


def names(verdicts: Iterable[Verdict], joiner: str = ", ") -> str:
    return joiner.join(spoken(v) for v in sorted(verdicts, key=list(Verdict).index))


def label_of(requirements: Iterable[Requirement], final: frozenset[Verdict] | None = None) -> str:
    """How tables show what a package's submission must get: the verdicts both permitted and required
    by every whole-submission rule (accepted: AC; wrong_answer: WA; rejected: WA/TLE/RE), and
    "+ groups" when some rule is on a group of tests only."""
    whole = [r for r in requirements if not r.tests]
    grouped = len(whole) < len(requirements)
    if final is None and not whole:
        return "by test group"
    allowed = set(final) if final is not None else set(TEST_VERDICTS)
    for r in whole:
        allowed &= r.permitted & r.required | ({Verdict.CE} & allowed)
    text = "/".join(str(v) for v in sorted(allowed, key=list(Verdict).index)) or "nothing"
    return text + (" + by test group" if grouped else "")


# -- globs, as the format has them: * within a name, {a,b} braces; a path matches when it or a parent does

def covers(pattern: str, path: str) -> bool:
    """Whether the glob matches the path (relative, with /) or one of its parent folders."""
    if not pattern:
        return True
    parts = path.split("/")
    prefixes = ["/".join(parts[:n]) for n in range(1, len(parts) + 1)]
    return any(regex.fullmatch(prefix) for regex in _compiled(pattern) for prefix in prefixes)


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> tuple[re.Pattern, ...]:
    return tuple(re.compile("[^/]*".join(re.escape(piece) for piece in expanded.strip("/").split("*")))
                 for expanded in _braces(pattern))


def _braces(pattern: str) -> list[str]:
    match = re.search(r"\{([^{}]*)\}", pattern)
    if match is None:
        return [pattern]
    head, tail = pattern[:match.start()], pattern[match.end():]
    # spaces around a choice are not part of it, as BAPCtools reads `{ 4 }` (test names hold no spaces)
    return [expanded for choice in match.group(1).split(",") for expanded in _braces(head + choice.strip() + tail)]


# -- reading a package's expectations

def tagged_verdicts(source: Path) -> tuple[frozenset[Verdict], int] | None:
    """The verdicts an `@EXPECTED_RESULTS@: A, B` comment names in a submission's source (a file, or
    any file of a folder), with its line; None when there is none. Names are DOMjudge's, BAPCtools'
    or ours, in any case; an unknown one is an error naming the file and line."""
    files = [source] if source.is_file() else sorted(p for p in source.rglob("*") if p.is_file())
    for path in files:
        try:
            with open(path, "rb") as handle:
                text = handle.read(TAG_READ).decode("utf-8", errors="replace")
        except OSError:
            continue
        match = TAG.search(text)
        if match is None:
            continue
        line = text.count("\n", 0, match.start()) + 1
        words = [word.strip().upper() for word in re.split(r"[,\s]+", match.group(1).strip().rstrip("*/ -").strip())]
        if words and all(word == "CHECK-MANUALLY" for word in words):
            return None  # DOMjudge's word for "a person judges this one": the tag expects nothing
        words = [word for word in words if word and word != "CHECK-MANUALLY"]
        unknown = [word for word in words if word not in TAG_NAMES]
        if unknown or not words:
            raise JudgeInputError(f"@EXPECTED_RESULTS@: unknown verdict {unknown[0]!r}" if unknown else
                                  "@EXPECTED_RESULTS@ names no verdict", path, line)
        return frozenset(TAG_NAMES[word] for word in words), line
    return None


def folder_default(folder: str) -> str | None:
    """The format's folder that `folder` is (itself, or one of FOLDER_ALIASES), or None."""
    name = folder.lower().replace("-", "_")
    return name if name in DEFAULTS else FOLDER_ALIASES.get(name)


class PackageExpectations:
    """A package's submissions/: its folders' defaults (a legacy package's: LEGACY_DEFAULTS),
    submissions.yaml and the submissions' tags."""

    def __init__(self, root: Path, legacy: bool = False, scoring: bool = False):
        self.root = root
        self.defaults = LEGACY_DEFAULTS if legacy else DEFAULTS
        # a legacy scoring package's accepted/: the final verdict AC, whatever its tests and score, as
        # problemtools checks it (it warns of a score below full); konami's and klartext's partial
        # solutions filed there were MISMATCH here, "OK: AC (18)" in problemtools (issue 46)
        self.final_accepted = legacy and scoring
        if self.final_accepted:
            self.defaults = self.defaults | {"accepted": (TEST_VERDICTS, TEST_VERDICTS)}
        self.rules: dict[str, dict] = {}
        self.lines: dict[str, int] = {}
        self.faults: dict[str, JudgeInputError] = {}  # a key whose rule is not a mapping: its submissions' fault
        path = root / SUBMISSIONS_FILE
        if path.is_file():
            spec, lines = load_mapping(path)
            for key, value in spec.items():
                if not isinstance(value, dict):
                    self.faults[str(key)] = JudgeInputError(f"{key}: expected a mapping of requirements", path,
                                                            lines.get(str(key)))
                    continue
                self.rules[str(key)] = value
                self.lines[str(key)] = lines.get(str(key)) or 1

    def expectation(self, submission: Path) -> Expectation | None:
        """What the submission (a file or folder under submissions/<folder>/) must get; None when
        nothing says (a folder the format does not know, no glob of submissions.yaml, no tag).
        JudgeInputError when what says cannot be read (a rule or a tag of its own): that submission's fault."""
        relative = submission.relative_to(self.root).as_posix()
        folder = relative.split("/")[0]
        for key, fault in self.faults.items():  # a faulty rule leaves out what it covers, not the package
            if key == folder or covers(key, relative):
                raise fault
        canonical = folder_default(folder)
        judged_whole = self.final_accepted and canonical == "accepted"  # (a legacy scoring package's accepted/)
        requirements = []
        if canonical is not None:
            permitted, required = self.defaults[canonical]
            base = {"permitted": sorted(spoken(v) for v in permitted), "required": sorted(spoken(v) for v in required)}
            origin = f"submissions/{folder}/"
            if judged_whole:  # (its times still bound the limit from below)
                base["use_for_time_limit"] = "lower"
            if folder in self.rules:  # the format's way to change a folder's defaults: keys given replace them
                base |= self.rules[folder]
                origin = f"{SUBMISSIONS_FILE}:{self.lines[folder]} ({folder})"
            requirements += self._requirements(base, origin, self.lines.get(folder))
        for key, rule in self.rules.items():
            if key != folder and covers(key, relative):
                requirements += self._requirements(rule, f"{SUBMISSIONS_FILE}:{self.lines[key]} ({key})",
                                                   self.lines[key])
        # partially_accepted/ (scoring problems): accepted, with tests that may fail; its score range is
        # the problem's (Kind.expected_score) unless submissions.yaml says otherwise
        final_ac = folder == "partially_accepted" or judged_whole
        final = frozenset({Verdict.AC}) if final_ac and folder not in self.rules else None
        tag = tagged_verdicts(submission)
        if tag is not None and folder not in LEGACY_FOLDERS:
            final, line = tag
            failing = final - {Verdict.CE}
            requirements.append(Requirement(frozenset(failing | {Verdict.AC}), frozenset(failing),
                                            f"@EXPECTED_RESULTS@ (line {line})"))
        if not requirements and final is None:
            return None
        return Expectation(label_of(requirements, final), final, tuple(requirements))

    def _requirements(self, rule: dict, origin: str, line: int | None, tests: str = "") -> list[Requirement]:
        """The rule's own requirement (when it has requirement keys) and those of its test groups."""
        where = self.root / SUBMISSIONS_FILE
        found = []
        if RULE_KEYS & rule.keys():
            found.append(Requirement(
                _verdict_set(rule.get("permitted"), "permitted", where, line),
                _verdict_set(rule.get("required"), "required", where, line), origin, tests,
                _text(rule.get("message"), where, line), _score(rule.get("score"), where, line),
                _time_limit_use(rule.get("use_for_time_limit"), where, line)))
        for key, value in rule.items():
            if key in RULE_KEYS or key in OTHER_KEYS:
                continue
            if not isinstance(value, dict):
                raise JudgeInputError(f"{key}: expected a mapping of requirements for these tests (or one of "
                                      f"{', '.join(sorted(RULE_KEYS | OTHER_KEYS))})", where, line)
            test_glob = f"{tests}/{key}" if tests else str(key)
            found += self._requirements(value, origin, line, test_glob)
        return found


def _verdict_set(value, key: str, where: Path, line: int | None) -> frozenset[Verdict]:
    if value is None:
        return TEST_VERDICTS
    words = value if isinstance(value, list) else [value]
    unknown = [w for w in words if not isinstance(w, str) or w.upper() not in SPEC_NAMES]
    if unknown:
        raise JudgeInputError(f"{key}: {unknown[0]!r} is not one of AC, WA, TLE, RTE", where, line)
    return frozenset(SPEC_NAMES[w.upper()] for w in words)


def _text(value, where: Path, line: int | None) -> str:
    if value is not None and not isinstance(value, str):
        raise JudgeInputError("message: expected text", where, line)
    return value or ""


def _score(value, where: Path, line: int | None) -> tuple[float, float] | None:
    if value is None:
        return None
    pair = value if isinstance(value, list) else [value, value]
    if len(pair) != 2 or not all(type(v) in (int, float) for v in pair) or pair[0] > pair[1]:
        raise JudgeInputError(f"score: expected a number or [low, high], got {value!r}", where, line)
    return float(pair[0]), float(pair[1])


def _time_limit_use(value, where: Path, line: int | None) -> bool | str | None:
    if value is None or value is False or value in ("lower", "upper"):
        return value
    if value is True:
        return None
    raise JudgeInputError(f"use_for_time_limit: expected true, false, lower or upper, got {value!r}", where, line)
