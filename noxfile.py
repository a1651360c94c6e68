"""The suite on each Python the judge supports (pyproject.toml's classifiers): `nox -s tests-3.12`.

    nox -s tests-3.11 tests-3.12 tests-3.13      the whole suite on each (pytest options after --)
    nox -s tests-3.13 -- tests/test_verdicts.py  a subset
    nox -s short-3.13                            the short tier CI runs: verdicts, bounds, sandbox

Each session has its own virtual environment under .nox/ (reused: `-R` skips the install) with
requirements.txt. An interpreter is looked for on PATH (python3.12) and then among pyenv's builds
(`pyenv root`/versions/3.12.*, the newest patch release), whether or not pyenv's shims would
choose it; a version found nowhere is skipped with nox's message, and nox exits 0 (on CI too).
A version's own rules for recursion and the stack are in docs/verdicts.md, "Python versions".
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import nox

VERSIONS = ["3.11", "3.12", "3.13"]
# The short tier: what a new Python changes most (verdicts and recursion, memory bounds, the
# sandbox's layers, the template's raw clone through the interpreter's fork hooks), in a few minutes.
SHORT = ["tests/test_verdicts.py", "tests/test_verdict_rules.py", "tests/test_bounds.py",
         "tests/test_sandbox_layers.py", "tests/test_template.py"]

nox.options.error_on_missing_interpreters = False  # CI sets CI=true, which would make it an error
nox.options.download_python = "never"  # the versions are this machine's; none is fetched
nox.options.reuse_venv = "yes"
nox.options.sessions = [f"tests-{version}" for version in VERSIONS]


def pyenv_root() -> Path | None:
    """Where pyenv keeps its builds: $PYENV_ROOT, `pyenv root`, or ~/.pyenv."""
    if os.environ.get("PYENV_ROOT"):
        return Path(os.environ["PYENV_ROOT"])
    if shutil.which("pyenv"):
        done = subprocess.run(["pyenv", "root"], capture_output=True, text=True, check=False)
        if done.returncode == 0 and done.stdout.strip():
            return Path(done.stdout.strip())
    home = Path.home() / ".pyenv"
    return home if home.is_dir() else None


def pyenv_build(version: str) -> Path | None:
    """The bin folder of pyenv's newest build of `version` (3.12.1 over 3.12.0; no dev or rc builds)."""
    root = pyenv_root()
    if root is None or not (root / "versions").is_dir():
        return None
    builds = [path for path in (root / "versions").iterdir()
              if re.fullmatch(re.escape(version) + r"\.\d+", path.name) and (path / "bin" / f"python{version}").exists()]
    if not builds:
        return None
    newest = max(builds, key=lambda path: int(path.name.rsplit(".", 1)[1]))
    return newest / "bin"


def find_interpreters() -> None:
    """Put pyenv's build of each version on PATH where PATH has no working `pythonX.Y` (pyenv's
    shim answers to every name but runs only the versions `pyenv global` names): nox looks there."""
    found = []
    for version in VERSIONS:
        on_path = shutil.which(f"python{version}")
        if on_path and subprocess.run([on_path, "-c", ""], capture_output=True, check=False).returncode == 0:
            continue
        build = pyenv_build(version)
        if build is not None:
            found.append(str(build))
    if found:
        os.environ["PATH"] = os.pathsep.join([*found, os.environ.get("PATH", "")])


find_interpreters()


def _pytest(session: nox.Session, default: list[str]) -> None:
    session.install("-q", "-r", "requirements.txt")
    session.run("python", "--version")
    session.run("python", "-m", "pytest", *(session.posargs or default))


@nox.session(python=VERSIONS)
def tests(session: nox.Session) -> None:
    """The whole suite (or the pytest arguments given after --) on this Python."""
    _pytest(session, [])


@nox.session(python=VERSIONS)
def short(session: nox.Session) -> None:
    """The short tier: the verdict, recursion, memory-bound and sandbox-layer tests on this Python."""
    _pytest(session, ["-q", "-n", "0", *SHORT])  # (one process: the tier is short, two workers' starts are not)
