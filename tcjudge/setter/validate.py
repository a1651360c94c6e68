"""`judge.py validate`: everything wrong with a problem folder at once, then the proofs of its data.

The loader's own checks (format.inspect_problem) come first; then what only a setter needs: folder
and slug rules, the statement, files the judge would never read; then the proofs that make the test
data trustworthy: the reference solution and verify.py both give every expected value and agree on
random inputs, the generator rebuilds its files bit for bit, the examples appear in the statement
(and each one it lists is a test), and every stored solution that should fail does fail a test. The
project's own pytest runs these same checks (tests/test_problem_data.py), so there is one
implementation of the proof. Each long phase is told to a progress (`Silent`, or what the command
shows on stderr), so that minutes of verify.py are not silent.

Reference solutions, verify.py and generators are the setter's code: they run in this process or as
plain subprocesses. Stored solutions that should fail are graded by the sandboxed engine.
"""

from __future__ import annotations

import importlib.util
import json
import random
import re
from pathlib import Path
from typing import Any, Callable

from ..engine.pool import Pool, SolutionRun
from ..errors import JudgeInputError
from ..problems.catalog import Catalog
from ..protocol import SOURCE_LIMIT
from ..problems.checkers import CUSTOM, testlib
from ..problems.checkers.custom import CHECKER_FILE
from ..problems.format import EXAMPLES_FILE, ORIGINAL_FILES, Findings, Problem
from ..problems.loader import inspect_problem, kind_of
from ..problems.testgen import load_solution, run_program
from .generate import GENERATOR, generated
from .packages import validate_package
from ..verdicts import Verdict

SLUG = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
SLUG_MAX = 40
RESERVED_SLUGS = {"index": "report --out writes index.html beside each problem's <slug>.html"}
STATEMENT = "statement.md"
KNOWN_FILES = {"problem.yaml", STATEMENT, "tests", "generator.py", "verify.py", "checker.py", "README.md",
               "__pycache__", *testlib.SOURCES}
RANDOM_CASES = 300
CASES_PER_RANDOM_FILE = 60  # a stdin problem's random_input is a whole file of many cases
EXAMPLES_HEADING = re.compile(r"#{1,6}\s*(examples?|samples?)\s*:?\s*$", re.IGNORECASE)
EXAMPLE_MARK = re.compile(r"(?:#{1,6}\s*|\*\*|__)?\s*(?:example|sample)(?:\s+input)?\s+#?(\d+)\b", re.IGNORECASE)
NUMBER_MARK = re.compile(r"(?:#{1,6}\s*|\*\*|__)\s*(\d+)\s*[.)]")  # "**0)**" in an Examples section


class Silent:
    """The progress of checks that no one shows (tests/test_problem_data.py calls them one by one);
    `judge validate` gives reports.progress.Phases, which shows them on stderr."""

    def phase(self, what: str, total: int | None = None) -> None:
        """A phase begins: `total` steps, or None when it has no count."""

    def advance(self) -> None:
        """One more step of the phase done."""


SILENT = Silent()


def _counted(progress: Silent, items):
    """`items`, each counted done by `progress` once the loop's body has run on it."""
    for item in items:
        yield item
        progress.advance()


def reference_path(catalog: Catalog, slug: str) -> Path:
    return catalog.solutions_dir / slug / "accepted" / "reference.py"


def validate_problem(catalog: Catalog, slug: str, jobs: int = 1, random_cases: int = RANDOM_CASES,
                     source_limit: int = SOURCE_LIMIT, prog: str = "judge", progress: Silent = SILENT) -> Findings:
    """Every error and warning of one problem folder, the proofs included; `prog` is the judge as the
    user calls it, for the commands its hints name; `progress` is told each long phase and its steps."""
    folder = catalog.problems_dir / slug
    problem, findings = inspect_problem(folder)
    if not kind_of(folder).own_format:  # a package, read as it is (setter/packages.py); its submissions,
        return validate_package(folder, problem, findings, progress)  # all of them, the command grades as check
    check_folder(folder, findings)
    if problem is None or findings.errors:
        return findings  # the proofs need a problem that loads
    if not problem.kind.program and (folder / CHECKER_FILE).is_file() and CUSTOM not in problem.checker:
        findings.warn(f"{CHECKER_FILE} is never used: problem.yaml says checker: {', '.join(problem.checker)} "
                      f"(write checker: {CUSTOM} to use it)", folder / CHECKER_FILE)
    check_examples_in_statement(problem, findings)
    reference = load_reference(catalog, problem, findings)
    if reference:
        check_expected_values(problem, "the reference solution", reference, findings, progress)
    verify = load_verify(problem, findings)
    if verify:
        check_expected_values(problem, "verify.py", verify_solver(problem, verify), findings, progress)
        if reference and not findings.errors:  # agreement on new inputs means little until the tests agree
            check_random_agreement(problem, reference, verify, findings, random_cases, progress)
    if (folder / "generator.py").is_file():
        check_generator(catalog, problem, findings, prog, progress)
    check_failing_solutions(catalog, problem, findings, jobs, source_limit, prog, progress)
    return findings


def check_folder(folder: Path, findings: Findings) -> None:
    """Slug, statement and stray files: what the loader does not need but a setter should hear about."""
    problem = slug_problem(folder.name)
    if problem:
        findings.error(f"problem folder name {problem}", folder)
    if not (folder / STATEMENT).is_file():
        findings.error(f"no {STATEMENT}: every problem needs a statement", folder)
    if not folder.is_dir():
        return
    for entry in sorted(folder.iterdir()):
        if entry.name not in KNOWN_FILES and not entry.name.startswith("."):
            findings.warn(f"not read by the judge (known: {', '.join(sorted(KNOWN_FILES - {'__pycache__'}))})", entry)
    tests_dir = folder / "tests"
    suffixes = kind_of(folder).test_suffixes
    if tests_dir.is_dir():
        for entry in sorted(tests_dir.iterdir()):
            if entry.suffix not in suffixes + (".yml",) and not entry.name.startswith("."):
                findings.warn(f"not a test file (test files end in {', '.join(suffixes)}): never read", entry)
    if not (tests_dir / "examples.yaml").is_file():
        findings.warn("no tests/examples.yaml: the statement's examples should be tests too", folder)


def slug_problem(slug: str) -> str | None:
    """Why `slug` cannot name a problem folder (`new` and `validate` share the rule), or None."""
    if not SLUG.match(slug) or len(slug) > SLUG_MAX:
        return (f"{slug!r} is not a valid slug: lower-case letters, digits and single hyphens, starting with a "
                f"letter, at most {SLUG_MAX} characters (e.g. {_suggest_slug(slug)!r})")
    if slug in RESERVED_SLUGS:
        return f"{slug!r} is reserved: {RESERVED_SLUGS[slug]}"
    return None


def _suggest_slug(slug: str) -> str:
    words = re.findall(r"[a-z0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1-\2", slug).lower())
    return "-".join(words)[:SLUG_MAX] or "my-problem"


def check_examples_in_statement(problem: Problem, findings: Findings) -> None:
    """Each example's arguments and expected value appear in statement.md (as JSON-like text), and
    each example the statement lists is a test of tests/examples.yaml."""
    path = problem.path / STATEMENT
    if not path.is_file():
        return
    text = path.read_text(encoding="utf-8", errors="replace")
    _check_listed_examples(problem, text, findings)
    statement = _squeeze(text)
    if problem.kind.program:
        for test in problem.examples:
            for what, data in (("input", test.input), ("output", test.answer)):
                if _squeeze(data.read().decode("utf-8", "replace")) not in statement:
                    findings.error(f"example {test.name}: its {what} does not appear in {STATEMENT}",
                                   problem.path / "tests" / test.file, test.line)
        return
    for test in problem.examples:
        shown = [(p.name, value) for p, value in zip(problem.parameters, test.args)] + [("expected", test.expected)]
        missing = [name for name, value in shown if _squeeze(_render(value)) not in statement]
        if missing:
            findings.error(f"example {test.name}: {', '.join(missing)} ({_render(dict(shown)[missing[0]])}) "
                           f"does not appear in {STATEMENT}", problem.path / "tests" / test.file, test.line)


def _check_listed_examples(problem: Problem, statement: str, findings: Findings) -> None:
    """The first example the statement lists past the tests of examples.yaml is an error at its line
    (an empty examples.yaml passed while the statement listed examples)."""
    listed, tests = listed_examples(statement), len(problem.examples)
    if len(listed) <= tests:
        return
    if not (problem.path / "tests" / EXAMPLES_FILE).is_file():
        held = "is not there"
    else:
        held = f"holds {tests} test{'s' * (tests != 1)}" if tests else "holds none"
    line, label = listed[tests]
    findings.error(f"{label} is not a test: the statement lists {len(listed)} example{'s' * (len(listed) != 1)} "
                   f"and tests/{EXAMPLES_FILE} {held} (each should be a test there, in the statement's order)",
                   problem.path / STATEMENT, line)


def listed_examples(statement: str) -> list[tuple[int, str]]:
    """The examples a statement lists, each as (line, what it is called): a line that starts (after
    a heading's #, or ** or __) with "Example N" or "Sample N", or in an Examples section with a
    bold or heading "N)" or "N."; an Examples section that numbers none lists one. Code blocks are
    skipped: an input's lines are never taken for examples."""
    found, section, fenced = {}, None, False
    for number, line in enumerate(statement.splitlines(), 1):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced or not line.strip():
            continue
        mark = EXAMPLE_MARK.match(line) or (NUMBER_MARK.match(line) if section else None)
        if mark:
            found.setdefault(mark.group(1), (number, f"Example {mark.group(1)}"))
        elif line.startswith("#"):
            section = number if EXAMPLES_HEADING.match(line) else None
        elif section and not found:
            found.setdefault(None, (section, "the example"))
    return [where for key, where in found.items() if key is not None] or list(found.values())


def _render(value: Any) -> str:
    return json.dumps(_plain(value), ensure_ascii=False)


def _plain(value: Any) -> Any:
    return [_plain(item) for item in value] if isinstance(value, (list, tuple)) else value


def _squeeze(text: str) -> str:
    """Whitespace dropped and TopCoder's {1, 2} read as [1, 2], so layout does not matter."""
    return re.sub(r"\s+", "", text).replace("{", "[").replace("}", "]")


def load_reference(catalog: Catalog, problem: Problem, findings: Findings) -> Callable[..., Any] | None:
    path = reference_path(catalog, problem.slug)
    if not path.is_file():
        findings.error("no reference solution: expected values cannot be proved", path)
        return None
    if problem.kind.program:
        return lambda data: run_program(path, data)  # a program: input bytes -> output bytes
    try:
        return load_solution(path, problem.class_name, problem.method)
    except Exception as err:  # the setter's own file: report it, do not crash
        findings.error(f"cannot load the reference solution: {type(err).__name__}: {err}", path)
        return None


def load_verify(problem: Problem, findings: Findings):
    path = problem.path / "verify.py"
    if not path.is_file():
        findings.warn("no verify.py: expected values are confirmed by one implementation only", path)
        return None
    try:
        spec = importlib.util.spec_from_file_location(f"_verify_{problem.slug}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except Exception as err:
        findings.error(f"cannot load verify.py: {type(err).__name__}: {err}", path)
        return None
    for name in ("solve", "random_input"):
        if not callable(getattr(module, name, None)):
            findings.error(f"verify.py defines no {name}() (see docs/problem-format.md)", path)
            return None
    return module


def verify_solver(problem: Problem, verify) -> Callable[..., Any]:
    """verify.solve called as the reference is: with the arguments in order, or (stdin) with the
    input bytes, its answer text then encoded."""
    if problem.kind.program:
        return lambda data: verify.solve(data).encode()
    return _keyword_caller(problem, verify.solve)


def _keyword_caller(problem: Problem, solve: Callable[..., Any]) -> Callable[..., Any]:
    names = [p.name for p in problem.parameters]
    return lambda *args: solve(**dict(zip(names, args)))


def check_expected_values(problem: Problem, who: str, solve: Callable[..., Any], findings: Findings,
                          progress: Silent = SILENT) -> None:
    """`solve` (called with the arguments as the judge passes them) gives every test's expected value."""
    progress.phase(f"{who} on every test", len(problem.tests))
    for test in _counted(progress, problem.tests):
        where = problem.path / "tests" / test.file
        try:
            got = solve(test.input.read()) if problem.kind.program else solve(*test.args)
        except Exception as err:
            findings.error(f"test {test.name}: {who} raised {type(err).__name__}: {err}", where, test.line)
            continue
        if problem.kind.program:
            outcome = problem.check(test.input.read(), test.answer.read(), got)
        else:
            outcome = problem.check(test.args, test.expected, _plain(got))
        if not outcome.ok:
            findings.error(f"test {test.name}: {who} disagrees: {outcome.message}", where, test.line)


def check_random_agreement(problem: Problem, reference: Callable[..., Any], verify, findings: Findings,
                           cases: int = RANDOM_CASES, progress: Silent = SILENT) -> None:
    """The reference and verify.py agree on `cases` inputs from verify.random_input (seeded by slug)."""
    rng = random.Random(f"agreement-{problem.slug}")
    path = problem.path / "verify.py"
    if problem.kind.program:
        files = max(1, cases // CASES_PER_RANDOM_FILE)
        progress.phase("the reference and verify.py on random input files", files)
        for case in _counted(progress, range(files)):
            data = verify.random_input(rng)
            want = verify.solve(data).encode()
            outcome = problem.check(data, want, reference(data))
            if not outcome.ok:
                findings.error(f"random input file {case}: the reference and verify.py disagree: {outcome.message}",
                               path)
                return
        return
    progress.phase("the reference and verify.py on random inputs", cases)
    for case in _counted(progress, range(cases)):
        try:
            kwargs = verify.random_input(rng)
        except Exception as err:
            findings.error(f"random_input failed: {type(err).__name__}: {err}", path)
            return
        if not isinstance(kwargs, dict) or set(kwargs) != {p.name for p in problem.parameters}:
            findings.error(f"random_input must return a dict naming {[p.name for p in problem.parameters]}, "
                           f"got {kwargs!r}", path)
            return
        invalid = problem.input_problems(kwargs)
        if invalid:
            findings.error(f"random_input gave an invalid input {kwargs}: {invalid[0]}", path)
            return
        args = tuple(param.type.to_argument(kwargs[param.name]) for param in problem.parameters)
        try:
            want = _plain(verify.solve(**dict(zip(kwargs, args))))
            outcome = problem.check(args, want, _plain(reference(*args)))
        except Exception as err:  # either implementation failing is the finding
            findings.error(f"random case {case} {kwargs}: {type(err).__name__}: {err}", path)
            return
        if not outcome.ok:
            findings.error(f"random case {case}: the reference and verify.py disagree on {kwargs}: "
                           f"{outcome.message} (verify.py says {want!r})", path)
            return


def check_generator(catalog: Catalog, problem: Problem, findings: Findings, prog: str = "judge",
                    progress: Silent = SILENT) -> None:
    """generator.py, run in a copy of the folder, writes the test files exactly as they are."""
    path = problem.path / GENERATOR
    progress.phase(f"{GENERATOR} in a copy of the folder")
    command = f"`{prog} generate {problem.slug}` (or validate --generate)"
    with generated(catalog, problem) as run:
        if run.failure:
            findings.error(run.failure, path)
            return
        for line in run.stderr.splitlines():
            if "DeprecationWarning" in line:
                findings.warn("generator.py: " + line.split("DeprecationWarning: ", 1)[-1], path)
        written = problem.kind.test_suffixes
        for name in sorted({p.name for p in (problem.path / "tests").iterdir() if p.suffix in written}
                           | set(run.written(problem))):
            before, after = problem.path / "tests" / name, run.tests / name
            if not before.is_file():
                findings.error(f"generator.py writes tests/{name}, which is not there yet: run {command}", path)
            elif not after.is_file():
                findings.error(f"generator.py does not write tests/{name} (delete the file if it is stale)", path)
            elif before.read_bytes() != after.read_bytes():
                findings.error(f"generator.py does not reproduce tests/{name} bit for bit: run {command} and review "
                               "the diff",
                               path)


def check_failing_solutions(catalog: Catalog, problem: Problem, findings: Findings, jobs: int = 1,
                            source_limit: int = SOURCE_LIMIT, prog: str = "judge", progress: Silent = SILENT) -> None:
    """Every stored solution filed under a failing verdict fails at least one test; a wrong answer
    fails one of our own tests (the originals may not be public)."""
    try:
        stored = [s for s in catalog.stored_solutions(problem.slug) if not s.expected.allows_accepted]
    except JudgeInputError as err:
        findings.errors.append(err)
        return
    for path, why in catalog.faults.items():  # what check leaves out with a note is the setter's to fix
        if path.is_relative_to(problem.path):
            findings.error(f"left out by check: {why}", path)
    ours = [t for t in problem.tests if t.is_ours]
    runs = [SolutionRun(problem, s.path, ours if s.expected.verdict is Verdict.WA else problem.tests, True, s.expected)
            for s in stored]
    for run in [run for run in runs if not run.tests]:
        findings.error("filed under WA but there are no tests of our own to fail: those are the files in "
                       f"{problem.path.name}/tests/ other than {' and '.join(ORIGINAL_FILES)} (the statement's "
                       f"examples and the original system tests); generator.py writes them: `{prog} generate "
                       f"{problem.slug}`", run.solution)
    runs = [run for run in runs if run.tests]
    if not runs:
        return
    progress.phase(f"grading the stored solutions that should fail ({len(runs)})", sum(len(run.tests) for run in runs))
    with Pool(jobs, source_limit=source_limit) as pool:
        results = pool.grade(runs, on_test=lambda *_: progress.advance())
    for result in results:
        if result.verdict is Verdict.AC:
            which = "every test of our own" if result.expected.verdict is Verdict.WA else "every test"
            findings.error(f"filed under {result.expected} but passes {which}: add a test that catches it",
                           result.solution)
        elif result.verdict is Verdict.IE:
            failure = result.first_failure
            findings.error(f"could not be judged (IE): {failure.message if failure else ''}", result.solution)
