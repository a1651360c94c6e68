"""The test data of a Kattis/ICPC package: the tests under data/sample and data/secret, the settings
each folder inherits, and what they decide for each test: its output validator flags and, in a
scoring problem, its score rule and the group tree that adds the scores up (scoring.py).

Settings files: `testdata.yaml` (legacy and the 2023-07 drafts; every key is inherited by the folders
below, as problemtools reads it) and `test_group.yaml` (2025-09; the validator arguments are inherited
by the folders below, the scoring keys belong to the group itself). A test's own `NAME.yaml` (2025-09)
may set its `output_validator_args`. A test's flags are problem.yaml's legacy `validator_flags`, then
its group's `output_validator_flags` (`output_validator_args`).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Callable

from ..errors import JudgeInputError
from .format import Data, Findings, TestCase
from .grader import Grader, find_grader
from .layout import format_version
from ..record import record, replace
from .scoring import GROUPS, LEGACY, Group, Grading, TestScore
from .yamlio import load_mapping

SETTINGS_FILES = ("testdata.yaml", "test_group.yaml")
OWN_KEYS = ("max_score", "score_aggregation", "require_pass", "static_validation_score", "scoring")  # 2025-09
FLAG_KEYS = ("output_validator_flags", "output_validator_args")
GRADER_SCORES = ("sum", "avg", "min", "max")
GRADER_VERDICTS = {"worst_error": "worst_error", "no_errors": "worst_error", "first_error": "first_error",
                   "always_accept": "always_accept"}
LEGACY_GRADING_KEYS = ("accept_score", "reject_score", "range")  # problem.yaml grading: overrides every group


@record
class Folder:
    """A folder of data/ and its settings: inherited (`settings`) and its own file's (`own`)."""

    name: str  # its path under data/ ("" for data/)
    settings: dict
    own: dict
    file: Path | None


CheckFor = Callable[[tuple[str, ...], Path], object]  # flags, the file that set them -> an OutputCheck or None


def read_tests(folder: Path, spec: dict, problem_flags: list[str], check_for: CheckFor,
               findings: Findings) -> tuple[list[TestCase], Grading | None]:
    """Every test (data/sample first, then data/secret, each in path order; named by its path under
    data/), with its own check where its flags differ from problem.yaml's, and the grading of a
    scoring problem (None for pass-fail)."""
    data = folder / "data"
    folders = _read_folders(data, findings)
    if folders is None:
        return [], None
    tests = []
    for part in ("sample", "secret"):
        for given in sorted((data / part).rglob("*.in"), key=lambda p: p.relative_to(data).parts):
            answer = given.with_suffix(".ans")
            if not answer.is_file():
                findings.error(f"no answer file {answer.name} beside it", given)
                continue
            flags, where = _test_flags(given, folders[given.parent], findings)
            if flags is None:
                continue
            flags = tuple(problem_flags) + flags
            check = None if flags == tuple(problem_flags) else check_for(flags, where)
            name = given.relative_to(data).with_suffix("").as_posix()
            tests.append(TestCase(name, (), None, given.relative_to(folder).as_posix(), 1, input=Data(path=given),
                                  answer=Data(path=answer), check=check))
    if "scoring" not in str(spec.get("type", "")).lower():
        return tests, None
    model = GROUPS if any(f.file and (f.file.name == "test_group.yaml" or any(k in f.own for k in OWN_KEYS))
                          for f in folders.values()) else LEGACY
    reader = _groups_tree if model == GROUPS else _legacy_tree
    return reader(data, spec, tests, folders, findings)


def _read_folders(data: Path, findings: Findings) -> dict[Path, Folder] | None:
    """data/ and every folder under data/sample and data/secret, with their settings."""
    folders: dict[Path, Folder] = {}

    def visit(path: Path, parent: Folder | None) -> bool:
        files = [path / name for name in SETTINGS_FILES if (path / name).is_file()]
        if len(files) > 1:
            findings.error("both testdata.yaml and test_group.yaml here: keep one", path)
            return False
        own: dict = {}
        if files:
            try:
                own, _ = load_mapping(files[0])
            except JudgeInputError as err:
                findings.errors.append(err)
                return False
        inherited = {} if parent is None else {key: value for key, value in parent.settings.items()
                                               if not (parent.file and parent.file.name == "test_group.yaml"
                                                       and key in OWN_KEYS)}
        name = path.relative_to(data).as_posix() if path != data else ""
        folders[path] = Folder(name, inherited | own, own, files[0] if files else None)
        children = [path / part for part in ("sample", "secret")] if parent is None else sorted(path.iterdir())
        return all(visit(child, folders[path]) for child in children
                   if child.is_dir() and not child.name.startswith("."))

    return folders if visit(data, None) else None


def _words(value, where: Path, key: str, findings: Findings) -> tuple[str, ...] | None:
    """Flags as words: text is split on spaces, a list is taken as it is; the legacy map form
    ({name: ..., flags: ...}) gives its flags."""
    if isinstance(value, dict) and "flags" in value:
        value = value["flags"]
    if isinstance(value, str):
        return tuple(value.split())
    if isinstance(value, list) and all(isinstance(word, (str, int, float)) for word in value):
        return tuple(str(word) for word in value)
    findings.error(f"{key}: expected text or a list of words", where)
    return None


def _test_flags(given: Path, folder: Folder, findings: Findings) -> tuple[tuple[str, ...] | None, Path]:
    """The output validator flags of one test: its own NAME.yaml's, else its folder's (inherited)."""
    own = given.with_suffix(".yaml")
    if own.is_file():
        try:
            values, _ = load_mapping(own)
        except JudgeInputError as err:
            findings.errors.append(err)
            return None, own
        if values.get("output_validator_args") is not None:
            return _words(values["output_validator_args"], own, "output_validator_args", findings), own
    for key in FLAG_KEYS:
        if folder.settings.get(key) is not None:
            return _words(folder.settings[key], folder.file or given.parent, key, findings), folder.file or given.parent
    return (), given.parent


# -- the legacy model: every folder a group, graded by the default grader ---------------------------

def _legacy_tree(data: Path, spec: dict, tests: list[TestCase], folders: dict[Path, Folder],
                 findings: Findings) -> tuple[list[TestCase], Grading | None]:
    grading = spec.get("grading") if isinstance(spec.get("grading"), dict) else {}
    overrides = {key: grading[key] for key in LEGACY_GRADING_KEYS if grading.get(key) is not None}
    if grading.get("on_reject") in ("first_error", "grade"):
        overrides["on_reject"] = "break" if grading["on_reject"] == "first_error" else "continue"
    validation = str(spec.get("validation", "")).split()
    legacy = format_version(spec) == "legacy"
    custom = ("required" if "score" in validation else "forbidden") if legacy else "allowed"
    groups: dict[Path, Group] = {}
    found: list[Grader] = []

    def package_grader() -> Grader | None:
        """The package's one grader program, read when the first group with grading: custom asks."""
        if not found:
            program, why = find_grader(data.parent)
            if program is None:
                findings.error(why, data.parent / "graders")
                return None
            found.append(Grader(program))
        return found[0]

    def group_of(path: Path) -> Group | None:
        if path not in groups:
            made = _legacy_group(folders[path], overrides, package_grader, findings)
            if made is None:
                return None
            groups[path] = made
            if path != data:
                parent = group_of(path.parent)
                if parent is None:
                    return None
                parent.items.append(made)
        return groups[path]

    scored = []
    for test in tests:
        path = data / Path(test.name).parent
        group = group_of(path)
        if group is None:
            return tests, None
        group.items.append(test.name)
        settings = folders[path].settings | overrides
        rule = TestScore("legacy", _number(settings, "accept_score", 1.0, findings, folders[path]),
                         _number(settings, "reject_score", 0.0, findings, folders[path]), custom)
        scored.append(replace(test, scoring=rule))
    root = group_of(data)
    if root is None or findings.errors:
        return tests, None
    objective = str(grading.get("objective", "max"))
    if objective not in ("max", "min"):
        findings.error(f"grading.objective: expected max or min, got {objective!r}", data.parent / "problem.yaml")
        return tests, None
    return scored, Grading(root, LEGACY, objective)


def _legacy_group(folder: Folder, overrides: dict, package_grader: Callable[[], Grader | None],
                  findings: Findings) -> Group | None:
    settings = folder.settings | overrides
    where = folder.file or None
    group = Group(folder.name, where=where)
    flags = settings.get("grader_flags") or ""
    words = flags.split() if isinstance(flags, str) else [str(w) for w in flags] if isinstance(flags, list) else None
    if words is None:
        findings.error("grader_flags: expected text", where)
        return None
    grading = str(settings.get("grading", "default"))
    if grading == "custom":  # the package's grader, given this group's flags
        grader = package_grader()
        if grader is None:
            return None
        group.grader = grader.with_flags(tuple(words))
    elif grading != "default":
        findings.error(f"grading: expected default or custom, got {grading!r}", where)
        return None
    for word in words:  # as the default grader reads them: the last of conflicting modes wins, others are ignored
        if word in GRADER_SCORES:
            group.score_mode = word
        elif word in GRADER_VERDICTS:
            group.verdict_mode = GRADER_VERDICTS[word]
        group.ignore_sample |= word == "ignore_sample"
        group.any_accepted |= word == "accept_if_any_accepted"
    on_reject = str(settings.get("on_reject", "break"))
    if on_reject not in ("break", "continue"):
        findings.error(f"on_reject: expected break or continue, got {on_reject!r}", where)
        return None
    group.stop_on_reject = on_reject == "break"
    bounds = str(settings.get("range", "-inf +inf")).split()
    try:
        group.low, group.high = (float(bound) for bound in bounds)
    except ValueError:
        findings.error(f"range: expected two numbers (inf allowed), got {settings.get('range')!r}", where)
        return None
    if group.low > group.high or math.isnan(group.low) or math.isnan(group.high):
        findings.error(f"range: the lower bound is above the upper one: {settings.get('range')!r}", where)
        return None
    return group


def _number(settings: dict, key: str, default: float, findings: Findings, folder: Folder) -> float:
    value = settings.get(key, default)
    if type(value) not in (int, float) or not math.isfinite(value):
        findings.error(f"{key}: expected a number, got {value!r}", folder.file)
        return default
    return float(value)


# -- the 2025-09 model: data/secret and its groups, max_score and score_aggregation ---------------------

def _groups_tree(data: Path, spec: dict, tests: list[TestCase], folders: dict[Path, Folder],
                 findings: Findings) -> tuple[list[TestCase], Grading | None]:
    secret_path = data / "secret"
    if secret_path not in folders:
        findings.error("a scoring problem needs data/secret", data)
        return tests, None
    secret = _scoring_settings(folders[secret_path], 100, "sum", findings)
    subfolders = [path for path in folders if path.parent == secret_path]
    grouped = [path for path in subfolders if folders[path].file is not None]
    if grouped and (len(grouped) != len(subfolders) or any(Path(t.name).parent == Path("secret") for t in tests)):
        findings.error("data/secret holds test groups (folders with test_group.yaml), so it must hold nothing else: "
                       "no tests of its own, no folder without test_group.yaml", secret_path)
        return tests, None
    if secret is None:
        return tests, None
    root = _scored_group("secret", secret, folders[secret_path].file)
    members: dict[str, tuple[Group, tuple]] = {}  # test name -> its group and settings
    for path in grouped:
        settings = _scoring_settings(folders[path], None, "pass-fail", findings)
        if settings is None:
            return tests, None
        if settings[0] is None and secret[0] is not None:
            findings.error("max_score: a group may be unbounded only when data/secret is", folders[path].file)
            return tests, None
        group = _scored_group(folders[path].name, settings, folders[path].file)
        root.items.append(group)
        for test in tests:
            if test.name.startswith(folders[path].name + "/"):
                group.items.append(test.name)
                members[test.name] = (group, settings)
    known = {"sample"} | {group.name for group in root.items}
    for group in [root, *root.items]:
        earlier = {"sample"} | {g.name for g in root.items if g.name < group.name}
        bad = [name for name in group.require_pass if name not in earlier]
        if bad:
            findings.error(f"require_pass: {bad[0]!r} is not sample or an earlier group (known: "
                           f"{', '.join(sorted(known))})", group.where)
            return tests, None
    if not grouped:  # the tests of secret itself, which share its maximum
        root.items = [test.name for test in tests if not test.name.startswith("sample/")]
    scored = []
    for test in tests:
        group, settings = members.get(test.name, (root, secret))
        rule = TestScore("sample") if test.name.startswith("sample/") else _test_rule(settings, len(group.items))
        scored.append(replace(test, scoring=rule))
    return scored, Grading(root, GROUPS)


def _scoring_settings(folder: Folder, max_default, aggregation_default: str,
                      findings: Findings) -> tuple[float | None, str, tuple[str, ...]] | None:
    """(max_score or None for unbounded, aggregation, require_pass) of secret or a group: the 2025-09
    keys, or the drafts' `scoring:` map (score, aggregation, require_pass)."""
    own, where = folder.own, folder.file
    draft = own.get("scoring") if isinstance(own.get("scoring"), dict) else {}
    if own.get("static_validation_score") is not None or own.get("static_validation") not in (None, False):
        findings.error("static validation is not supported (no static validator is run)", where)
        return None
    maximum = own.get("max_score", draft.get("score", max_default))
    if maximum == "unbounded" or maximum is None:
        maximum = None
    elif type(maximum) not in (int, float) or maximum < 0 or not math.isfinite(maximum):
        findings.error(f"max_score: expected a number >= 0 or 'unbounded', got {maximum!r}", where)
        return None
    aggregation = str(own.get("score_aggregation", draft.get("aggregation", aggregation_default)))
    if aggregation not in ("sum", "min", "pass-fail"):
        findings.error(f"score_aggregation: expected sum, min or pass-fail, got {aggregation!r}", where)
        return None
    if aggregation == "pass-fail" and maximum is None:
        findings.error("max_score: a group with pass-fail aggregation needs a maximum score", where)
        return None
    required = own.get("require_pass", draft.get("require_pass", []))
    required = [required] if isinstance(required, str) else required
    if not isinstance(required, list) or not all(isinstance(name, str) for name in required):
        findings.error("require_pass: expected a group name or a list of them", where)
        return None
    return (None if maximum is None else float(maximum)), aggregation, tuple(required)


def _scored_group(name: str, settings: tuple, where: Path | None) -> Group:
    maximum, aggregation, required = settings
    return Group(name, score_mode=aggregation, verdict_mode="first_error", any_accepted=aggregation == "sum",
                 stop_on_reject=False, low=0.0, high=math.inf if maximum is None else maximum,
                 full=maximum if aggregation == "pass-fail" else None, require_pass=required, where=where)


def _test_rule(settings: tuple, count: int) -> TestScore:
    """A secret test's rule: its group's aggregation decides its maximum (`count`: the tests in the
    group, which share a sum's maximum)."""
    maximum, aggregation, _ = settings
    if aggregation == "pass-fail":
        return TestScore("unscored")
    if maximum is None:
        return TestScore("unbounded")
    share = maximum / count if aggregation == "sum" else maximum
    return TestScore("bounded", share)
