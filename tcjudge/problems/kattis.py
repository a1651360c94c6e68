"""Kattis / ICPC problem packages, read as they are (the layout problemtools and BAPCtools read).

A folder under --problems is a package when it has problem.yaml and data/ (and no tests/ of ours).
Both the legacy Kattis format and the ICPC 2023-07 format are read:

    problem.yaml                   name (text, or {en: ...}), source, limits (time_limit, memory, output,
                                   validation_time and validation_memory for its validator),
                                   validation (legacy: default | custom), validator_flags (legacy),
                                   type (2023-07: pass-fail, scoring, interactive, multi-pass: multipass.py,
                                   submit-answer: submitanswer.py)
    .timelimit                     the time limit in seconds, when problem.yaml has none (neither:
                                   computed from the submissions, timing.py)
    problem_statement/ statement/  the name from \\problemname{...} (legacy) when problem.yaml has none
    data/sample/**.in + .ans       the examples, then data/secret/**.in + .ans, each sorted by path
    data/**/testdata.yaml, test_group.yaml: each group's validator flags and, for `type: scoring`,
                                   its grading (testgroups.py reads them, scoring.py adds scores up)
    graders/                       a legacy scoring package's custom grader (grader.py)
    output_validators/X/ (legacy), output_validator/ (2023-07): the problem's own output validator,
                                   in any layout of programs.py (a folder nested in it too; a file with
                                   its headers and helpers beside it: programs.slot_programs)
    constants (2025-09)            {{name}} replaced in submissions and programs (constants.py)
    submissions/<folder>/, submissions.yaml, @EXPECTED_RESULTS@: what `check` grades (expectations.py;
                                   partially_accepted/ of a scoring problem: a score range too)

What is not supported is refused with a one-line reason (static validation) or
left out with a note (submissions in a language the judge does not know, or whose compiler is not
installed here). See docs/kattis.md.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Mapping

from ..errors import JudgeInputError
from ..protocol import ANSWER_CAP
from ..verdicts import Verdict
from .expectations import SUBMISSIONS_FILE, Expectation, PackageExpectations
from .format import Findings, Problem, SolutionLanguage, did_you_mean, language_of
from .layout import claims_package, format_version, package_type
from .checkers import OutputCheck, testlib
from .checkers.output_validator import OutputValidator
from .checkers.tokens import TokenRules
from .programs import slot_programs
from .constants import read_constants
from .scoring import ScoreRange
from .stdio import StdinKind, stdin_problem
from .testgroups import read_tests
from .timing import MAX_LIMIT, UNSET, Timing
from .yamlio import load_mapping

DEFAULT_TIME_LIMIT = 1.0  # seconds, when neither problem.yaml nor .timelimit gives one
DEFAULT_MEMORY = 2048  # MiB, the Kattis default
DEFAULT_OUTPUT = 8  # MiB of standard output, the format's default for limits.output
VISUALIZERS = ("input_visualizer", "output_visualizer", "output_visualizers")  # (the formats' names for them)
PROBLEM_NAME = re.compile(r"\\problemname\{([^}]*)\}")


# problem.yaml's keys, as the format defines them ("Any unknown keys should be treated as an error"),
# and `checker` (ours: a testlib checker): legacy, then 2023-07 / 2025-09; their limits; nested maps
LEGACY_KEYS = ("problem_format_version", "type", "name", "uuid", "author", "source", "source_url", "license",
               "rights_owner", "limits", "validation", "validator_flags", "grading", "keywords", "checker")
CURRENT_KEYS = ("problem_format_version", "type", "name", "uuid", "version", "credits", "source", "license",
                "rights_owner", "embargo_until", "limits", "keywords", "languages", "allow_file_writing", "constants",
                "checker")
LIMIT_KEYS = ("time_limit", "memory", "output", "code", "compilation_time", "compilation_memory", "validation_time",
              "validation_memory", "validation_output", "validation_passes")
LEGACY_LIMIT_KEYS = LIMIT_KEYS + ("time_multiplier", "time_safety_margin", "time_multipliers")  # (read in either)
CURRENT_LIMIT_KEYS = LIMIT_KEYS + ("time_multipliers", "time_resolution")
NESTED_KEYS = {"limits.time_multipliers": ("ac_to_time_limit", "time_limit_to_tle"),
               "grading": ("objective", "show_test_data_groups", "accept_score", "reject_score", "range", "on_reject")}


class PackageKind(StdinKind):
    """A Kattis/ICPC package: a standard-input problem, read as it is (no format_version, tests/ or
    proofs of ours)."""

    name = "kattis"
    own_format = False
    out_of_memory = Verdict.RE  # Kattis fails the allocation itself: a run-time error, as submissions/ expect

    def claims(self, folder: Path, spec: dict) -> bool:
        return claims_package(folder, spec)

    def inspect(self, folder: Path, spec: dict, lines: dict[str, int],
                findings: Findings) -> tuple[Problem | None, Findings]:
        return inspect_package(folder, spec, findings, self)

    def solutions_folder(self, folder: Path, solutions: Path) -> Path:
        return folder / "submissions"

    def stored_solutions(self, folder: Path, solutions: Path, languages: Mapping[str, SolutionLanguage],
                         ) -> tuple[list[tuple[Path, Expectation]], list[Path], dict[Path, str]]:
        return submissions(folder, languages)

    def expected_score(self, problem: Problem, solution: Path) -> ScoreRange | None:
        """What score a submission must get: below the best, under submissions/partially_accepted/ of a
        scoring problem (the format's default); None: its verdict alone is checked."""
        if problem.grading is not None and solution.parent.name == "partially_accepted":
            return problem.grading.partially_accepted()
        return None


PACKAGE = PackageKind()


def inspect_package(folder: Path, spec: dict, findings: Findings,
                    kind: PackageKind | None = None) -> tuple[Problem | None, Findings]:
    """Read a package into a stdin Problem of `kind` (a pass-fail package by default), every fault
    recorded in findings (file and line): reading goes on past a fault, so that `validate` names
    them all at once (every missing .ans beside a bad limit or validator); None with any of them."""
    spec_path = folder / "problem.yaml"
    version = format_version(spec)
    limits = spec.get("limits") or {}
    if not isinstance(limits, dict):
        findings.error("limits: expected a mapping", spec_path)
        limits = {}
    time_limit, time_limit_from = _time_limit(folder, limits, findings)
    timing, why = Timing.read(limits, version == "legacy")  # (calibrate reads it too)
    if timing is None:
        findings.error(why, spec_path)
    elif time_limit_from == "":  # none given: computed from the submissions (runs.settle_time_limit)
        time_limit_from = f"{UNSET} ({timing.words})"
    memory = _limit(limits, "memory", DEFAULT_MEMORY, 16, 1 << 20, findings, spec_path)
    output = _limit(limits, "output", DEFAULT_OUTPUT, 1, ANSWER_CAP >> 20, findings, spec_path)
    constants, why = read_constants(spec)
    if why:
        findings.error(why, spec_path)
    visualizers = [name for name in VISUALIZERS if (folder / name).exists()]
    if visualizers:
        findings.warn(f"{' and '.join(visualizers)} not run: the judge draws no visualizations", folder)
    flags = _validator_flags(folder, spec, findings)
    validation = _validation_limits(limits, findings, spec_path)
    check = None if flags is None or validation is None else _output_check(folder, spec, version, flags,
                                                                          validation, findings)
    check_for = _checks_by_flags(check, folder, findings) if check is not None else lambda flags, where: None
    tests, grading = read_tests(folder, spec, flags or [], check_for, findings)
    if not tests and not findings.errors:
        findings.error("the package has no tests (data/sample or data/secret *.in with .ans)", folder / "data")
    if findings.errors:
        return None, findings
    problem = stdin_problem(folder, _name(folder, spec), str(spec.get("source") or ""), time_limit, memory, check,
                            package="ICPC " + version if version != "legacy" else "Kattis legacy", kind=kind or PACKAGE)
    problem.output_limit, problem.constants = int(output), constants
    if isinstance(check.settings, OutputValidator):
        check.settings.constants = constants
    problem.time_limit_from, problem.timing = time_limit_from, timing
    problem.tests, problem.grading = tests, grading
    return problem, findings


def unknown_keys(spec: dict, lines: dict[str, int], where: Path) -> list[JudgeInputError]:
    """problem.yaml's keys that its format version does not define, each at its line with the key it
    is likely a typo of: `limts:` was read as no limits at all (the memory limit 2048 MiB)."""
    legacy = format_version(spec) == "legacy"
    known = {"": LEGACY_KEYS if legacy else CURRENT_KEYS, "limits": LEGACY_LIMIT_KEYS if legacy else CURRENT_LIMIT_KEYS,
             **NESTED_KEYS}
    found = []
    for prefix, keys in known.items():
        mapping = spec
        for part in prefix.split(".") if prefix else ():
            mapping = mapping.get(part) if isinstance(mapping, dict) else None
        for key in mapping if isinstance(mapping, dict) else ():
            if key not in keys:
                dotted = f"{prefix}.{key}" if prefix else str(key)
                found.append(JudgeInputError(f"unknown key {dotted!r} in a {'legacy' if legacy else spec['problem_format_version']} "
                                             f"package{did_you_mean(str(key), keys)}", where, lines.get(dotted)))
    return found


def _limit(limits: dict, key: str, default: int, low: int, high: int, findings: Findings, where: Path) -> int | float:
    """limits.KEY in MiB, between low and high (a bad value recorded, the default read instead)."""
    value = limits.get(key, default)
    if type(value) not in (int, float) or not low <= value <= high:
        findings.error(f"limits.{key}: expected MiB between {low} and {high}, got {value!r}", where)
        return default
    return value


def submissions(folder: Path, languages: Mapping[str, SolutionLanguage], answers: bool = False,
                ) -> tuple[list[tuple[Path, Expectation]], list[Path], dict[Path, str]]:
    """(submission, expectation) for every submission under submissions/<folder>/ that the judge can
    run (or, with `answers`, a folder of answer files: submitanswer.py) and that something expects
    something of (the folder, submissions.yaml, an @EXPECTED_RESULTS@ comment: expectations.py), the
    entries it skips (other languages or a missing compiler, folders nothing says anything about), and
    those left out for a fault of their own, with why: one submission never refuses its package."""
    found, skipped, faults = [], [], {}
    root = folder / "submissions"
    if not root.is_dir():
        return found, skipped, faults
    spec = _spec(folder)
    expectations = PackageExpectations(root, legacy=format_version(spec) == "legacy",
                                       scoring="scoring" in str(spec.get("type", "")).split())
    for group in sorted(root.iterdir()):
        if group.name.startswith(".") or group.name == SUBMISSIONS_FILE:
            continue
        if not group.is_dir():
            skipped.append(group)
            continue
        for entry in sorted(group.iterdir()):
            if entry.name.startswith("."):
                continue
            why = _unreadable(entry)  # first: reading a fifo's text to look for a tag would wait forever
            if why is None:
                try:
                    runnable = _runnable(entry, languages) or (answers and entry.is_dir())
                    expectation = expectations.expectation(entry) if runnable else None
                except JudgeInputError as err:
                    why = f"what it must get cannot be read: {_within_package(err, folder)}"
            if why is not None:
                faults[entry] = why
            elif expectation is None:
                skipped.append(entry)
            else:
                found.append((entry, expectation))
    return found, skipped, faults


def _spec(folder: Path) -> dict:
    """The package's problem.yaml ({} without one; load_mapping keeps what the loader read)."""
    path = folder / "problem.yaml"
    return load_mapping(path)[0] if path.is_file() else {}


def _within_package(err: JudgeInputError, folder: Path) -> str:
    """The error, its file named from the package's folder (`submissions/submissions.yaml:3: ...`)."""
    path = Path(err.path) if err.path is not None else None
    if path is not None and path.is_relative_to(folder):
        path = path.relative_to(folder)
    return str(JudgeInputError(err.message, path, err.line))


def _unreadable(entry: Path) -> str | None:
    """Why a submission's file or folder cannot be read (a link that leads nowhere, a fifo, a device,
    no permission), else None; nothing is opened that could block."""
    try:
        mode = entry.stat().st_mode
    except OSError as err:
        return f"cannot be read: {'a link that leads nowhere' if entry.is_symlink() else err.strerror}"
    if stat.S_ISDIR(mode):
        return None if os.access(entry, os.R_OK | os.X_OK) else "cannot be read: permission denied"
    if not stat.S_ISREG(mode):
        return "cannot be read: neither a regular file nor a folder"
    return None if os.access(entry, os.R_OK) else "cannot be read: permission denied"


def _runnable(path: Path, languages: Mapping[str, SolutionLanguage]) -> bool:
    """A submission (a file or a folder of files) in one of the `languages` (by file extension), whose
    compiler is installed here, and not in a dialect the judge does not run (Python 2)."""
    language = language_of(path, languages)
    return (language is not None and language.toolchain() is not None
            and getattr(language, "unsupported", lambda _: None)(path) is None)


def _name(folder: Path, spec: dict) -> str:
    name = spec.get("name")
    if isinstance(name, dict):  # 2023-07: one name per language
        name = name.get("en") or next(iter(name.values()), None)
    if isinstance(name, str) and name:
        return name
    for statement in sorted(folder.glob("problem_statement/problem*.tex")) + sorted(folder.glob("statement/problem*.tex")):
        match = PROBLEM_NAME.search(statement.read_text(encoding="utf-8", errors="replace"))
        if match:
            return match.group(1).strip()
    return folder.name


def _time_limit(folder: Path, limits: dict, findings: Findings) -> tuple[float | None, str]:
    """The time limit the package gives, and where from ("" when it gives none)."""
    if "time_limit" in limits:
        value, where = limits["time_limit"], folder / "problem.yaml"
    elif (folder / ".timelimit").is_file():
        where = folder / ".timelimit"
        text = where.read_text(encoding="utf-8", errors="replace").strip()
        try:
            value = float(text)
        except ValueError:
            value = text
    else:
        return DEFAULT_TIME_LIMIT, ""
    if type(value) not in (int, float) or not 0.01 <= value <= MAX_LIMIT:
        findings.error(f"time limit: expected seconds between 0.01 and {MAX_LIMIT:g}, got {value!r}", where)
        return None, ""
    return float(value), "problem.yaml" if where.name == "problem.yaml" else ".timelimit"


def _validation_limits(limits: dict, findings: Findings, where: Path) -> dict | None:
    """limits.validation_time (CPU seconds) and validation_memory (MiB) for the package's own
    validator, checker or interactor, the format's defaults where absent (None: a bad value, recorded)."""
    found = {}
    for key, name, default, low, high in (("validation_time", "time_limit", OutputValidator.TIMEOUT, 0.1, 3600),
                                          ("validation_memory", "memory_mib", OutputValidator.MEMORY_MIB, 16, 1 << 20)):
        value = limits.get(key, default)
        if type(value) not in (int, float) or not low <= value <= high:
            findings.error(f"limits.{key}: expected a number between {low:g} and {high:g}, got {value!r}", where)
            return None
        found[name] = value
    return found


def _output_check(folder: Path, spec: dict, version: str, flags: list[str], validation: dict,
                  findings: Findings) -> OutputCheck | None:
    validators = slot_programs(folder / "output_validator", one=True) if version != "legacy" else []
    legacy = folder / "output_validators"
    if legacy.is_dir():
        validators += slot_programs(legacy)
    elif version == "legacy":  # the program itself in the singular folder: DOMjudge's legacy examples (hangman, jumble)
        validators += slot_programs(folder / "output_validator", one=True)
    if spec.get("checker") is not None:
        return _testlib_check(folder, spec, validators, flags, validation, findings)
    custom = "custom" in str(spec.get("validation", "")) or (version != "legacy" and validators)
    if custom:
        if len(validators) != 1:
            findings.error(f"a custom output validator needs exactly one under output_validator(s)/, found "
                           f"{_programs_found(validators, folder)}", folder)
            return None
        return OutputCheck("output_validator", OutputValidator(validators[0], flags, **validation))
    try:
        return OutputCheck("tokens", TokenRules.parse(flags))
    except ValueError as err:
        findings.error(f"validator flags: {err}", folder / "problem.yaml")
        return None


def _checks_by_flags(check: OutputCheck, folder: Path, findings: Findings):
    """The check of a test group whose flags differ from problem.yaml's: the same validator with
    those flags, made once per distinct set of flags."""
    made: dict[tuple[str, ...], OutputCheck | None] = {}

    def check_for(flags: tuple[str, ...], where: Path) -> OutputCheck | None:
        if flags not in made:
            if isinstance(check.settings, OutputValidator):
                made[flags] = OutputCheck(check.name, check.settings.with_flags(list(flags)))
            else:
                try:
                    made[flags] = OutputCheck(check.name, TokenRules.parse(list(flags)))
                except ValueError as err:
                    findings.error(f"validator flags: {err}", where)
                    made[flags] = None
        return made[flags]

    return check_for


def _testlib_check(folder: Path, spec: dict, validators: list[Path], flags: list[str], validation: dict,
                   findings: Findings) -> OutputCheck | None:
    """`checker: testlib` (our key, not the format's): the package's output validator folder holds a
    testlib checker (Codeforces / Polygon convention) instead of a Kattis validator."""
    where = folder / "problem.yaml"
    if spec["checker"] != testlib.NAME:
        findings.error(f"checker: only {testlib.NAME!r} is known in a package, not {spec['checker']!r}", where)
    elif any(word in package_type(spec) for word in ("interactive", "multi-pass", "multipass")):
        findings.error("checker: a testlib checker judges one output; interactive and multi-pass problems need a "
                       "Kattis output validator", where)
    elif flags:
        findings.error("checker: a testlib checker takes no validator flags", where)
    elif len(validators) != 1:
        findings.error(f"checker: testlib needs its program as the one output validator under output_validator(s)/, "
                       f"found {_programs_found(validators, folder)}", folder)
    else:
        return OutputCheck(testlib.NAME, testlib.TestlibChecker(validators[0], **validation))
    return None


def _programs_found(programs: list[Path], folder: Path) -> str:
    """How many programs a slot held, and which: '2 (output_validators/a.py, output_validators/b.cpp)'."""
    names = ", ".join(p.relative_to(folder).as_posix() for p in programs)
    return f"{len(programs)} ({names})" if programs else "0"


def _validator_flags(folder: Path, spec: dict, findings: Findings) -> list[str] | None:
    """problem.yaml's validator_flags (legacy): the flags of every test, before its group's own."""
    value = spec.get("validator_flags")
    if value is None:
        return []
    if isinstance(value, (str, list)):
        return value.split() if isinstance(value, str) else [str(word) for word in value]
    findings.error("validator_flags: expected text or a list of words", folder / "problem.yaml")
    return None
