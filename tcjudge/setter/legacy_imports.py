"""The generator import paths documented before the package was renamed, kept working for generators
the judge runs (validate), with a deprecation warning naming the new path.

Decision: no top-level `harness` package ships, since an unrelated `harness` project is on PyPI and
the two would overwrite each other. Instead a finder answers the old names, and it is appended last
to sys.meta_path of the generator's own process only: a real `harness` package, where installed,
always wins. A generator run by hand (`python generator.py`) needs the new path, `tcjudge.testgen`.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import types
import warnings

NEW_PATH = "tcjudge.testgen"
ALIASES = {"harness.testgen": NEW_PATH, "harness.problems.testgen": NEW_PATH}
PARENTS = {"harness", "harness.problems"}

# Run by the generator's interpreter: `python -c BOOT generator.py [args]` behaves as
# `python generator.py [args]` (argv, sys.path[0], __main__), with the old names answered.
BOOT = ("import sys, runpy, os; sys.argv = sys.argv[1:]; sys.path[0] = os.path.dirname(os.path.abspath(sys.argv[0])); "
        "from tcjudge.setter.legacy_imports import install; install(); "
        "runpy.run_path(sys.argv[0], run_name='__main__')")


class LegacyFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Answers `harness`, `harness.problems` (empty packages) and the two old testgen modules."""

    def find_spec(self, name, path=None, target=None):
        if name in PARENTS or name in ALIASES:
            return importlib.util.spec_from_loader(name, self, is_package=name in PARENTS)
        return None

    def create_module(self, spec):
        if spec.name in PARENTS:
            module = types.ModuleType(spec.name)
            module.__path__ = []
            return module
        warnings.warn(f"'{spec.name}' is deprecated: import {NEW_PATH} instead (docs/stability.md)",
                      DeprecationWarning, stacklevel=2)
        return importlib.import_module(ALIASES[spec.name])

    def exec_module(self, module):
        """Nothing to run: the module is either empty or the new one."""


def install() -> None:
    """Answer the old names last, and show their deprecation warnings (hidden by default otherwise)."""
    warnings.filterwarnings("default", category=DeprecationWarning, message=".*is deprecated: import tcjudge")
    if not any(isinstance(finder, LegacyFinder) for finder in sys.meta_path):
        sys.meta_path.append(LegacyFinder())
