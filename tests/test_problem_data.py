"""Proof of the problem set's test data: every expected value is confirmed by two implementations.

For each problem under problems/: the reference solution (solutions/<slug>/accepted/reference.py)
and the independent problems/<slug>/verify.py both produce every expected value; the two agree on
hundreds of random small inputs; the generator reproduces its files bit for bit; each wrong answer
in solutions/ fails at least one test of our own, not only an original one.
"""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
from pathlib import Path

import pytest

from harness.problems.checker import compare
from harness.problems.format import Problem, load_problem
from harness.problems.testgen import load_solution

from .conftest import ROOT

PROBLEMS_DIR = ROOT / "problems"
SOLUTIONS_DIR = ROOT / "solutions"
SLUGS = sorted(p.name for p in PROBLEMS_DIR.iterdir() if (p / "problem.yaml").is_file())
MINIMUM_TESTS = {"mankala": 150, "chefgame": 150}
RANDOM_CASES = 300


def _method(problem: Problem, path: Path):
    """The solution at `path`, run in-process as the judge would: a fresh instance per call."""
    return load_solution(path, problem.class_name, problem.method)


def _verify_module(problem: Problem):
    spec = importlib.util.spec_from_file_location(f"_verify_{problem.slug}", problem.path / "verify.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module", params=SLUGS)
def problem(request) -> Problem:
    return load_problem(PROBLEMS_DIR / request.param)


@pytest.fixture(scope="module")
def reference(problem):
    return _method(problem, SOLUTIONS_DIR / problem.slug / "accepted" / "reference.py")


@pytest.fixture(scope="module")
def verify(problem):
    return _verify_module(problem)


def _kwargs(problem: Problem, args: tuple) -> dict:
    return {param.name: value for param, value in zip(problem.parameters, args)}


def test_every_expected_value_is_confirmed_by_both_implementations(problem, reference, verify):
    for test in problem.tests:
        for source, got in (("reference", reference(*test.args)), ("verify", verify.solve(**_kwargs(problem, test.args)))):
            outcome = compare(test.expected, got, problem.returns, problem.double_tolerance)
            assert outcome.ok, f"{problem.slug}/{test.file}:{test.line} {test.name}: {source}: {outcome.message}"


def test_reference_and_verify_agree_on_random_inputs(problem, reference, verify):
    rng = random.Random(f"agreement-{problem.slug}")
    for case in range(RANDOM_CASES):
        kwargs = verify.random_input(rng)
        args = tuple(param.type.to_argument(kwargs[param.name]) for param in problem.parameters)
        want = verify.solve(**_kwargs(problem, args))
        outcome = compare(want, reference(*args), problem.returns, problem.double_tolerance)
        assert outcome.ok, f"{problem.slug} random case {case} {kwargs}: {outcome.message}"


def test_problem_has_enough_tests_of_each_origin(problem):
    ours = [t for t in problem.tests if t.is_ours]
    assert problem.examples, f"{problem.slug} has no examples"
    assert ours, f"{problem.slug} has no tests of our own"
    assert len(problem.tests) >= MINIMUM_TESTS.get(problem.slug, 100)


def test_wrong_answers_fail_one_of_our_own_tests(problem):
    ours = [t for t in problem.tests if t.is_ours]
    for path in sorted((SOLUTIONS_DIR / problem.slug / "wrong_answer").glob("*.py")):
        method = _method(problem, path)
        caught = next(
            (t for t in ours if not compare(t.expected, method(*t.args), problem.returns, problem.double_tolerance).ok),
            None,
        )
        assert caught is not None, f"{path.relative_to(ROOT)} passes every test of our own"


def test_generator_reproduces_its_files_bit_for_bit(problem):
    tests_dir = problem.path / "tests"
    before = {p.name: p.read_bytes() for p in tests_dir.glob("*.yaml")}
    try:
        subprocess.run([sys.executable, str(problem.path / "generator.py")], check=True, cwd=ROOT,
                       capture_output=True, timeout=600)
        after = {p.name: p.read_bytes() for p in tests_dir.glob("*.yaml")}
        changed = sorted(name for name in before.keys() | after.keys() if before.get(name) != after.get(name))
        assert not changed, f"{problem.slug}: generator.py changed {changed}"
    finally:
        for name, data in before.items():
            (tests_dir / name).write_bytes(data)
