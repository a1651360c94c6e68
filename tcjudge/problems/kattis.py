"""Kattis / ICPC problem packages, read as they are (the layout problemtools and BAPCtools read).

A folder under --problems is a package when it has problem.yaml and data/ (and no tests/ of ours).
Both the legacy Kattis format and the ICPC 2023-07 format are read:

    problem.yaml                   name (text, or {en: ...}), source, limits (time_limit, memory),
                                   validation (legacy: default | custom), validator_flags (legacy),
                                   type (2023-07: pass-fail only)
    .timelimit                     the time limit in seconds, when problem.yaml has none (neither:
                                   computed from the submissions, timing.py)
    problem_statement/ statement/  the name from \\problemname{...} (legacy) when problem.yaml has none
    data/sample/**.in + .ans       the examples, then data/secret/**.in + .ans, each sorted by path
    data/**/testdata.yaml          output_validator_flags / output_validator_args (one value per package)
    output_validators/X/ (legacy), output_validator/ (2023-07): the problem's own output validator
    submissions/<folder>/, submissions.yaml, @EXPECTED_RESULTS@: what `check` grades (expectations.py)

What is not supported is refused with a one-line reason (interactive, multi-pass and scoring
problems, per-group validator flags) or left out with a note (submissions in a language the judge
does not know, or whose compiler is not installed here). See docs/kattis.md.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Mapping

from ..errors import JudgeInputError
from ..protocol import ANSWER_CAP
from ..verdicts import Verdict
from .expectations import SUBMISSIONS_FILE, Expectation, PackageExpectations
from .format import Data, Findings, Problem, SolutionLanguage, TestCase
from .checkers import OutputCheck
from .checkers.output_validator import OutputValidator
from .checkers.tokens import TokenRules
from .stdio import StdinKind, stdin_problem
from .timing import MAX_LIMIT, UNSET, Timing
from .yamlio import load_mapping

DEFAULT_TIME_LIMIT = 1.0  # seconds, when neither problem.yaml nor .timelimit gives one
DEFAULT_MEMORY = 2048  # MiB, the Kattis default
DEFAULT_OUTPUT = 8  # MiB of standard output, the format's default for limits.output
PROBLEM_NAME = re.compile(r"\\problemname\{([^}]*)\}")
UNSUPPORTED_TYPES = ("multi-pass", "multipass", "scoring", "submit-answer")
# problem.yaml keys only a package has (ours name a class or say type: stdin): such a folder is a package
# even without data/ (interactive and submit-answer examples often have none), and says so
PACKAGE_KEYS = ("problem_format_version", "validation", "validator_flags", "limits", "uuid", "license", "rights_owner")


class PackageKind(StdinKind):
    """A Kattis/ICPC package: a standard-input problem, read as it is (no format_version, tests/ or
    proofs of ours)."""

    name = "kattis"
    own_format = False
    out_of_memory = Verdict.RE  # Kattis fails the allocation itself: a run-time error, as submissions/ expect

    def claims(self, folder: Path, spec: dict) -> bool:
        return is_package(folder) or ("class" not in spec and not (folder / "tests").is_dir()
                                      and any(key in spec for key in PACKAGE_KEYS))

    def inspect(self, folder: Path, spec: dict, lines: dict[str, int],
                findings: Findings) -> tuple[Problem | None, Findings]:
        return inspect_package(folder, spec, findings, self)

    def solutions_folder(self, folder: Path, solutions: Path) -> Path:
        return folder / "submissions"

    def stored_solutions(self, folder: Path, solutions: Path, languages: Mapping[str, SolutionLanguage],
                         ) -> tuple[list[tuple[Path, Expectation]], list[Path]]:
        return submissions(folder, languages)


PACKAGE = PackageKind()


def is_package(folder: Path) -> bool:
    return (folder / "problem.yaml").is_file() and (folder / "data").is_dir() and not (folder / "tests").is_dir()


def package_type(spec: dict) -> str:
    """What problem.yaml says the package is: its 2023-07 `type` and legacy `validation`, lower case."""
    return " ".join(str(spec.get(key, "")) for key in ("type", "validation")).lower()


def inspect_package(folder: Path, spec: dict, findings: Findings,
                    kind: PackageKind | None = None) -> tuple[Problem | None, Findings]:
    """Read a package into a stdin Problem of `kind` (a pass-fail package by default), every fault
    recorded in findings (file and line)."""
    spec_path = folder / "problem.yaml"
    version = str(spec.get("problem_format_version", "legacy"))
    refused = [word for word in UNSUPPORTED_TYPES if word in package_type(spec)]
    if refused:
        findings.error(f"{refused[0]} problems are not supported (only pass-fail problems with a default or custom "
                       f"output validator, and interactive ones)", spec_path)
        return None, findings
    limits = spec.get("limits") or {}
    if not isinstance(limits, dict):
        findings.error("limits: expected a mapping", spec_path)
        return None, findings
    time_limit, time_limit_from = _time_limit(folder, limits, findings)
    timing, why = Timing.read(limits, version == "legacy")  # (calibrate reads it too)
    if timing is None:
        findings.error(why, spec_path)
        return None, findings
    if time_limit_from == "":  # none given: computed from the submissions (runs.settle_time_limit)
        time_limit_from = f"{UNSET} ({timing.words})"
    memory = limits.get("memory", DEFAULT_MEMORY)
    if type(memory) not in (int, float) or not 16 <= memory <= 1 << 20:
        findings.error(f"limits.memory: expected MiB between 16 and {1 << 20}, got {memory!r}", spec_path)
        return None, findings
    output = limits.get("output", DEFAULT_OUTPUT)
    if type(output) not in (int, float) or not 1 <= output <= ANSWER_CAP >> 20:
        findings.error(f"limits.output: expected MiB between 1 and {ANSWER_CAP >> 20}, got {output!r}", spec_path)
        return None, findings
    check = _output_check(folder, spec, version, findings)
    if time_limit is None or check is None:
        return None, findings
    problem = stdin_problem(folder, _name(folder, spec), str(spec.get("source") or ""), time_limit, memory, check,
                            package="ICPC " + version if version != "legacy" else "Kattis legacy", kind=kind or PACKAGE)
    problem.output_limit = int(output)
    problem.time_limit_from, problem.timing = time_limit_from, timing
    problem.tests = _tests(folder, findings)
    if not problem.tests and not findings.errors:
        findings.error("the package has no tests (data/sample or data/secret *.in with .ans)", folder / "data")
    return problem, findings


def submissions(folder: Path,
                languages: Mapping[str, SolutionLanguage]) -> tuple[list[tuple[Path, Expectation]], list[Path]]:
    """(submission, expectation) for every submission under submissions/<folder>/ that the judge can
    run and that something expects something of (the folder, submissions.yaml, an @EXPECTED_RESULTS@
    comment: expectations.py), and the entries it skips (other languages or a missing compiler,
    folders nothing says anything about)."""
    found, skipped = [], []
    root = folder / "submissions"
    if not root.is_dir():
        return found, skipped
    expectations = PackageExpectations(root)
    for group in sorted(root.iterdir()):
        if group.name.startswith(".") or group.name == SUBMISSIONS_FILE:
            continue
        if not group.is_dir():
            skipped.append(group)
            continue
        for entry in sorted(group.iterdir()):
            if entry.name.startswith("."):
                continue
            expectation = expectations.expectation(entry) if _runnable(entry, languages) else None
            if expectation is None:
                skipped.append(entry)
            else:
                found.append((entry, expectation))
    return found, skipped


def _runnable(path: Path, languages: Mapping[str, SolutionLanguage]) -> bool:
    """A submission in one of the `languages` (by file extension), whose compiler is installed here."""
    language = languages.get(path.suffix.lower())
    return language is not None and language.toolchain() is not None


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


def _output_check(folder: Path, spec: dict, version: str, findings: Findings) -> OutputCheck | None:
    flags = _validator_flags(folder, spec, findings)
    if flags is None:
        return None
    validator_dirs = [folder / "output_validator"] if version != "legacy" else []
    legacy = folder / "output_validators"
    if legacy.is_dir():
        validator_dirs += sorted(p for p in legacy.iterdir() if not p.name.startswith("."))
    validators = [p for p in validator_dirs if p.exists()]
    custom = "custom" in str(spec.get("validation", "")) or (version != "legacy" and validators)
    if custom:
        if len(validators) != 1:
            findings.error(f"a custom output validator needs exactly one under output_validator(s)/, found "
                           f"{len(validators)}", folder)
            return None
        return OutputCheck("output_validator", OutputValidator(validators[0], flags))
    try:
        return OutputCheck("tokens", TokenRules.parse(flags))
    except ValueError as err:
        findings.error(f"validator flags: {err}", folder / "problem.yaml")
        return None


def _validator_flags(folder: Path, spec: dict, findings: Findings) -> list[str] | None:
    """The flags for the output validator: problem.yaml's validator_flags (legacy) or the one value of
    output_validator_flags / output_validator_args in data/**/testdata.yaml."""
    values = {}
    if spec.get("validator_flags") is not None:
        values[folder / "problem.yaml"] = spec["validator_flags"]
    for path in sorted((folder / "data").rglob("testdata.yaml")):
        try:
            settings, _ = load_mapping(path)
        except JudgeInputError as err:
            findings.errors.append(err)
            return None
        for key in ("output_validator_flags", "output_validator_args"):
            if settings.get(key) is not None:
                values[path] = settings[key]
    words = {path: value.split() if isinstance(value, str) else [str(w) for w in value] if isinstance(value, list)
             else None for path, value in values.items()}
    bad = [path for path, value in words.items() if value is None]
    if bad:
        findings.error("validator flags: expected text or a list of words", bad[0])
        return None
    distinct = {tuple(value) for value in words.values()}
    if len(distinct) > 1:
        findings.error("different output validator flags per test group are not supported (one value per package)",
                       sorted(words)[-1])
        return None
    return list(distinct.pop()) if distinct else []


def _tests(folder: Path, findings: Findings) -> list[TestCase]:
    """data/sample first, then data/secret, each in path order; a test is named by its path under data/."""
    data = folder / "data"
    tests = []
    for part in ("sample", "secret"):
        for given in sorted((data / part).rglob("*.in"), key=lambda p: p.relative_to(data).parts):
            answer = given.with_suffix(".ans")
            relative = given.relative_to(folder).as_posix()
            if not answer.is_file():
                findings.error(f"no answer file {answer.name} beside it", given)
                continue
            name = given.relative_to(data).with_suffix("").as_posix()
            tests.append(TestCase(name, (), None, relative, 1, input=Data(path=given), answer=Data(path=answer)))
    return tests
