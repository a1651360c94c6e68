"""The README's examples come from real runs: docs/readme_examples.py re-runs the quick ones here
(`--all` runs the slow ones too) and fails when their output has drifted."""

from __future__ import annotations

import sys

from . import budget
from .conftest import ROOT

sys.path.insert(0, str(ROOT / "docs"))
import readme_examples  # noqa: E402


def test_the_readme_examples_print_what_the_readme_shows():
    done = budget.run([sys.executable, str(ROOT / "docs" / "readme_examples.py")], capture_output=True,
                          text=True, cpu=900)
    assert done.returncode == 0, done.stdout + done.stderr


def test_drift_is_caught_but_figures_that_vary_are_not():
    for progress in ("judge: 3/10 tests, 0/2 solutions, 12s elapsed", "judge: validating sum-two: verify.py on every "
                     "test, 3/41, 12s elapsed"):  # a slow machine's progress lines are no drift
        assert readme_examples.PROGRESS.match(progress)
    shown = ["Checking 46 stored solutions", "...", "judged in 0.13 s with 2 worker(s)"]
    assert readme_examples.matches(shown, ["Checking 46 stored solutions", "a", "b", "judged in 0.9 s with 2 worker(s)"])
    assert not readme_examples.matches(shown, ["Checking 68 stored solutions", "judged in 0.9 s with 2 worker(s)"])
    rows = ["layer  status", "rlimits  on"]
    assert not readme_examples.matches(rows, ["layer  status", "rlimits  on", "bounds  on"])  # a row the README lacks
    assert readme_examples.matches(["example-0  AC  1.1  3.0  10.6"], ["example-0  AC    1.25   13.0   9.7"])
