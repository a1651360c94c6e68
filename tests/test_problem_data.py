"""Proof of the problem set's test data, by the same code as `judge.py validate` (one implementation).

For each problem under problems/: the folder has no faults; the reference solution
(solutions/<slug>/accepted/reference.py) and the independent problems/<slug>/verify.py both give every
expected value and agree on hundreds of random small inputs; the generator reproduces its files bit
for bit; the examples appear in the statement; every stored solution filed under a failing verdict
fails a test (a wrong answer, one of our own tests).
"""

from __future__ import annotations

import pytest

from tcjudge.languages import EXTENSIONS
from tcjudge.problems.catalog import Catalog
from tcjudge.problems.format import Findings
from tcjudge.problems.loader import inspect_problem
from tcjudge.setter import validate

from .conftest import ROOT

CATALOG = Catalog(ROOT / "problems", ROOT / "solutions", EXTENSIONS)
SLUGS = CATALOG.slugs()
MINIMUM_TESTS = {"mankala": 150, "chefgame": 150, "chefgm": 13}  # chefgm: the sample and 12 files of games


def _clean(findings: Findings) -> None:
    assert not findings.errors and not findings.warnings, "\n".join(map(str, findings.errors + findings.warnings))


@pytest.fixture(scope="module", params=SLUGS)
def problem(request):
    loaded, findings = inspect_problem(CATALOG.problems_dir / request.param)
    validate.check_folder(loaded.path, findings)
    _clean(findings)
    return loaded


def test_examples_appear_in_the_statement(problem):
    findings = Findings()
    validate.check_examples_in_statement(problem, findings)
    _clean(findings)


def test_every_expected_value_is_confirmed_by_both_implementations(problem):
    findings = Findings()
    reference = validate.load_reference(CATALOG, problem, findings)
    verify = validate.load_verify(problem, findings)
    _clean(findings)
    validate.check_expected_values(problem, "the reference solution", reference, findings)
    validate.check_expected_values(problem, "verify.py", validate.verify_solver(problem, verify), findings)
    validate.check_random_agreement(problem, reference, verify, findings)
    _clean(findings)


def test_problem_has_enough_tests_of_each_origin(problem):
    ours = [t for t in problem.tests if t.is_ours]
    assert problem.examples, f"{problem.slug} has no examples"
    assert ours, f"{problem.slug} has no tests of our own"
    assert len(problem.tests) >= MINIMUM_TESTS.get(problem.slug, 100)


def test_stored_failing_solutions_fail_a_test(problem):
    findings = Findings()
    validate.check_failing_solutions(CATALOG, problem, findings, jobs=2)
    _clean(findings)


def test_generator_reproduces_its_files_bit_for_bit(problem):
    findings = Findings()
    validate.check_generator(CATALOG, problem, findings)
    _clean(findings)
