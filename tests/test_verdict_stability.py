"""A verdict is a property of the solution alone: the same per test on an idle machine and on one
where CPU burner processes (two per core) compete with the judge, at -j 1 and -j 2.

The solutions under testdata/stability/ are the cases that used to flip: a correct solution using
two thirds of its CPU limit, output floods, deep recursion, recursion to the memory limit, memory
then time, CPU burnt in many threads, the stack-raising preamble, a sleeper. Each declares its
verdict (`# expect: X`); every test of every solution must get it under every condition.
"""

from __future__ import annotations

import pytest

from benchmarks.load import CORES, SOLUTIONS, cpu_burners, grade_all

from .conftest import expected_verdict

BURNERS = 2 * CORES
CONDITIONS = {"idle, -j 2": (2, 0), f"{BURNERS} burners, -j 1": (1, BURNERS), f"{BURNERS} burners, -j 2": (2, BURNERS)}


@pytest.fixture(scope="module")
def verdicts() -> dict[str, dict[tuple[str, str], tuple[str, str]]]:
    """condition -> (solution, test) -> (verdict, message)."""
    graded = {}
    for label, (jobs, burners) in CONDITIONS.items():
        with cpu_burners(burners):
            results = grade_all(jobs)
        graded[label] = {(stem, test.name): (str(test.verdict or result.verdict), test.message or result.compile_message)
                         for stem, result in results.items() for test in result.tests}
    return graded


@pytest.mark.parametrize("condition", CONDITIONS)
@pytest.mark.parametrize("path", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_every_test_gets_the_declared_verdict(verdicts, condition, path):
    expected = expected_verdict(path)
    got = {name: outcome for (stem, name), outcome in verdicts[condition].items() if stem == path.stem}
    assert got and all(verdict == expected for verdict, _ in got.values()), got


def test_the_same_facts_give_the_same_message_kind(verdicts):
    """Not only the verdict: the reason (CPU limit, idle limit, memory) is the same everywhere."""
    def reason(message: str) -> str:
        return message.split(" ")[0] if message else ""

    reasons = {label: {key: reason(message) for key, (_, message) in graded.items()}
               for label, graded in verdicts.items()}
    first, *others = reasons.values()
    for other in others:
        assert other == first
