import importlib
import sys
from pathlib import Path

import pytest
import yaml

from tcjudge.errors import JudgeInputError
from tcjudge.problems.layout import claims_package
from tcjudge.problems.loader import KINDS, kind_of, load_problem

from . import budget
from .conftest import FIXTURE_PROBLEMS, ROOT, TESTDATA

BROKEN = sorted((TESTDATA / "broken").iterdir())


def test_fixture_problem_loads_with_types_limits_and_order():
    problem = load_problem(FIXTURE_PROBLEMS / "adder")
    assert problem.class_name == "Adder" and problem.method == "add"
    assert problem.signature == "long add(int[] values, int factor)"
    assert (problem.time_limit, problem.memory_limit) == (0.5, 64)
    assert [t.name for t in problem.tests] == ["example-0", "example-1", "big", "negative"]
    assert [t.name for t in problem.examples] == ["example-0", "example-1"]
    assert problem.tests[0].args == ((1, 2, 3), 2)
    assert [(t.file, t.line) for t in problem.tests[1:3]] == [("examples.yaml", 4), ("more.yaml", 1)]
    assert [t.is_ours for t in problem.tests] == [False, False, True, True]


def test_defaults_apply_when_limits_are_omitted(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "problem.yaml").write_text(
        "name: Echo\nclass: Echo\nmethod: echo\nparameters: [{name: word, type: String}]\nreturns: String\n"
    )
    (tmp_path / "tests" / "examples.yaml").write_text('- {name: one, args: {word: "a"}, expected: "a"}\n')
    problem = load_problem(tmp_path)
    assert (problem.time_limit, problem.memory_limit, problem.checker) == (2.0, 256, ("exact",))
    assert problem.double_tolerance == 1e-9


@pytest.mark.parametrize("folder", BROKEN, ids=[p.name for p in BROKEN])
def test_broken_problem_is_rejected_naming_file_and_line(folder: Path):
    message, where = (folder / "expected-error.txt").read_text().splitlines()
    with pytest.raises(JudgeInputError) as caught:
        load_problem(folder)
    text = str(caught.value)
    assert message in text
    assert text.startswith(f"{folder / where}: "), text


def test_missing_folder_is_an_input_error(tmp_path):
    with pytest.raises(JudgeInputError, match="no problem.yaml"):
        load_problem(tmp_path)


@pytest.mark.parametrize("field, value, line, message", [
    ("class", "class", 1, "class: 'class' is a Python keyword"),
    ("method", "lambda", 2, "method: 'lambda' is a Python keyword"),
    ("param", "def", 4, "parameters: parameter name: 'def' is a Python keyword"),
    ("param", "self", 4, "parameters: parameter name: 'self' is the method's own first parameter"),
])
def test_keywords_are_refused_as_names_naming_file_and_line(tmp_path, field, value, line, message):
    names = {"class": "Echo", "method": "echo", "param": "word", field: value}
    (tmp_path / "tests").mkdir()
    (tmp_path / "problem.yaml").write_text(
        f"class: {names['class']}\nmethod: {names['method']}\nparameters:\n  - {{name: {names['param']}, type: String}}\n"
        "returns: String\nname: Echo\n")
    (tmp_path / "tests" / "examples.yaml").write_text(f'- {{name: one, args: {{{names["param"]}: "a"}}, expected: "a"}}\n')
    with pytest.raises(JudgeInputError) as caught:
        load_problem(tmp_path)
    assert str(caught.value).startswith(f"{tmp_path / 'problem.yaml'}:{line}: {message}"), str(caught.value)


def every_problem_folder() -> list[Path]:
    roots = [ROOT / "problems", TESTDATA]
    return sorted(spec.parent for root in roots for spec in root.rglob("problem.yaml")
                  if "submissions" not in spec.parts and "data" not in spec.parts)


def test_a_package_kind_is_asked_only_where_it_could_claim_and_the_pick_is_unchanged():
    """The loader asks a package kind only about a package-shaped folder (layout.claims_package):
    every kind it leaves out would have said no, so its pick is the one asking every kind in order."""
    folders = every_problem_folder()
    assert len(folders) > 20
    every_kind = [getattr(importlib.import_module(f"tcjudge.problems.{module}"), name) for module, name, _ in KINDS]
    for folder in folders:
        try:
            spec = yaml.safe_load((folder / "problem.yaml").read_text())
        except (yaml.YAMLError, UnicodeDecodeError):
            spec = {}
        spec = spec if isinstance(spec, dict) else {}
        for kind, (_, _, of_packages) in zip(every_kind, KINDS):
            if of_packages and kind.claims(folder, spec):
                assert claims_package(folder, spec), (folder, kind.name)
        assert kind_of(folder) is next(kind for kind in every_kind if kind.claims(folder, spec)), folder


def test_grading_one_of_our_own_problems_imports_no_package_kind(tmp_path):
    program = ("import sys; from tcjudge.problems.loader import load_problem; "
               f"load_problem(__import__('pathlib').Path({str(FIXTURE_PROBLEMS / 'adder')!r})); "
               "print(sorted(m for m in sys.modules if m.split('.')[-1] in "
               "('kattis', 'interactive', 'multipass', 'submitanswer', 'testgroups')))")
    done = budget.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT, cpu=60)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
