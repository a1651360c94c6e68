"""The layers are a contract the build checks (issue 20): import-linter's contracts in pyproject.toml
hold, a wrong-way import breaks them, and no module or function outgrows what a reader holds in mind."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from . import budget
from .conftest import ROOT

MODULE_LINES, FUNCTION_LINES = 600, 100
# Known exceptions, each with its reason (none left: issue 20 split the zygote and the BPF builder).
TOO_LONG: dict[str, str] = {}


def lint_imports(project: Path) -> subprocess.CompletedProcess:
    command = shutil.which("lint-imports", path=os.path.dirname(sys.executable)) or shutil.which("lint-imports")
    if command is None:
        pytest.skip("import-linter is not installed (pip install -r requirements.txt)")
    return budget.run([command, str(project / "pyproject.toml")], cwd=project, capture_output=True,
                          text=True, cpu=300, env=dict(os.environ, PYTHONPATH=str(project)))


def test_the_import_contracts_hold():
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "BROKEN" not in done.stdout and done.stdout.count("KEPT") >= 3


@pytest.mark.parametrize("module, line, refused", [
    ("problems/tctypes.py", "from ..commands import common  # noqa: E402  (a floor that is above)",
     "tcjudge.problems is not allowed to import tcjudge.commands"),
    # the kinds register with one loader and import what they share: the shared module importing a
    # kind closes a circle, which the problems contract refuses
    ("problems/format.py", "from . import stdio  # noqa: E402  (a kind, which imports this module)",
     "tcjudge.problems.format is not allowed to import tcjudge.problems.stdio"),
    # serve's pages and API share the server's state: the state importing the app closes a circle
    # (issue 47: app, api and pages imported each other), which the serve contract refuses
    ("serve/state.py", "from . import app  # noqa: E402  (the app, which imports this module)",
     "tcjudge.serve.state is not allowed to import tcjudge.serve.app"),
])
def test_a_wrong_way_import_breaks_them(tmp_path, module, line, refused):
    shutil.copytree(ROOT / "tcjudge", tmp_path / "tcjudge", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    changed = tmp_path / "tcjudge" / module
    changed.write_text(changed.read_text() + f"\n{line}\n")
    done = lint_imports(tmp_path)
    assert done.returncode != 0
    assert refused in done.stdout, done.stdout


def _sizes():
    for path in sorted((ROOT / "tcjudge").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        yield name, len(text.splitlines())
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield f"{name}:{node.name}", node.end_lineno - node.lineno + 1


def test_no_module_or_function_outgrows_a_reader():
    too_long = [f"{where} ({lines} lines)" for where, lines in _sizes()
                if lines > (FUNCTION_LINES if ":" in where else MODULE_LINES) and where not in TOO_LONG]
    assert not too_long, too_long
    listed = {where for where, lines in _sizes() if lines > (FUNCTION_LINES if ":" in where else MODULE_LINES)}
    assert set(TOO_LONG) <= listed, f"no longer too long, take off the list: {set(TOO_LONG) - listed}"
