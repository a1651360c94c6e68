"""A problem's generator.py, run with the judge's own interpreter in a copy of the problem folder: what
`judge generate` writes back into tests/ and what `judge validate` compares with the files there.

The generator is the setter's code: a plain subprocess with a time limit. Running it in a copy (with
the problem's stored solutions linked beside it, where `testgen.reference` looks for the reference)
leaves the folder as it was until the run has succeeded, and works with any --solutions folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..problems.catalog import Catalog
from ..problems.format import Problem
from ..protected import PROJECT_ROOT
from ..record import record
from . import legacy_imports

GENERATOR = "generator.py"
GENERATOR_TIMEOUT = 600


@record(frozen=True)
class Generated:
    """One run of a generator: `failure` says why it did not finish well (None when it did), `tests`
    is the copy's tests/ folder, `stderr` what it printed there, `touched` the files it wrote."""
    failure: str | None
    tests: Path
    stderr: str
    touched: tuple[str, ...] = ()

    def written(self, problem: Problem) -> list[str]:
        """The names of the test files the run left in the copy."""
        return sorted(p.name for p in self.tests.iterdir() if p.suffix in problem.kind.test_suffixes)


@contextmanager
def generated(catalog: Catalog, problem: Problem) -> Iterator[Generated]:
    """Run `problem`'s generator.py in a scratch copy of its folder; the copy lives until the block ends."""
    with tempfile.TemporaryDirectory(prefix="judge-generator-") as scratch:
        copy = Path(scratch) / "problems" / problem.slug
        shutil.copytree(problem.path, copy, ignore=shutil.ignore_patterns("__pycache__"))
        (copy / "tests").mkdir(exist_ok=True)
        (Path(scratch) / "solutions").mkdir()
        stored = catalog.solutions_dir / problem.slug
        if stored.is_dir():
            (Path(scratch) / "solutions" / problem.slug).symlink_to(stored.resolve(), target_is_directory=True)
        before = _stamps(copy / "tests")
        try:
            done = subprocess.run([sys.executable, "-c", legacy_imports.BOOT, str(copy / GENERATOR)], cwd=scratch,
                                  capture_output=True, text=True, timeout=GENERATOR_TIMEOUT, env=generator_env())
        except subprocess.TimeoutExpired:
            yield Generated(f"{GENERATOR} did not finish within {GENERATOR_TIMEOUT} s", copy / "tests", "")
            return
        failure = None
        if done.returncode:
            tail = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
            failure = f"{GENERATOR} failed (exit status {done.returncode}): {tail}"
        after = _stamps(copy / "tests")
        touched = tuple(sorted(name for name, stamp in after.items() if before.get(name) != stamp))
        yield Generated(failure, copy / "tests", done.stderr, touched)


def _stamps(folder: Path) -> dict[str, int]:
    return {entry.name: entry.stat().st_mtime_ns for entry in folder.iterdir() if entry.is_file()}


def generator_env() -> dict[str, str]:
    """The environment a generator runs in: the judge's own package importable, with no PYTHONPATH to set."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT_ROOT), env.get("PYTHONPATH")]))
    return env


def generate(catalog: Catalog, problem: Problem) -> tuple[str | None, dict[str, str]]:
    """Run the generator and write what it wrote into the problem's tests/: (why it failed or None,
    {file name: "new", "changed" or "unchanged"}). A failed run writes nothing."""
    with generated(catalog, problem) as run:
        if run.failure:
            return run.failure, {}
        tests = problem.path / "tests"
        tests.mkdir(exist_ok=True)
        outcome = {}
        for name in (name for name in run.touched if name in run.written(problem)):
            target, made = tests / name, (run.tests / name).read_bytes()
            outcome[name] = "unchanged" if target.is_file() and target.read_bytes() == made else \
                "changed" if target.is_file() else "new"
            if outcome[name] != "unchanged":
                target.write_bytes(made)
        return None, outcome


def generate_lines(catalog: Catalog, slug: str) -> tuple[bool, list[str]]:
    """`judge generate` for one problem, as the lines it prints: (whether it succeeded, lines)."""
    problem = catalog.problem(slug)
    if not (problem.path / GENERATOR).is_file():
        return True, [f"{slug}: no {GENERATOR}: nothing to generate"]
    failure, outcome = generate(catalog, problem)
    if failure:
        return False, [f"{problem.path / GENERATOR}: error: {failure}"]
    written = ", ".join(f"tests/{name} ({what})" for name, what in outcome.items()) or "no test files"
    return True, [f"{slug}: {GENERATOR} wrote {written}"]
