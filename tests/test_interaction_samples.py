""".interaction samples (problems/interaction.py): `judge statement` shows them as a dialogue and
`judge validate` replays them against the package's validator (setter/samples.py). testdata/kattis/guess
(interactive) and testdata/kattis/encode (multi-pass, passes separated by ---) carry one each.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .conftest import TESTDATA

KATTIS = TESTDATA / "kattis"


def _copy(tmp_path: Path, name: str) -> Path:
    return Path(shutil.copytree(KATTIS / name, tmp_path / "problems" / name))


def test_statement_shows_an_interactive_sample_as_a_dialogue(judge):
    code, out, err = judge("--problems", KATTIS, "statement", "guess")
    assert code == 0, err
    assert "Example 1 (sample/1)\nprogram 500\njudge   higher\nprogram 750\n" in out
    assert out.rstrip().endswith("program 777\njudge   correct")
    assert "Find it in at most 10 guesses" in out  # the statement's own text first


def test_statement_numbers_the_passes_of_a_multi_pass_sample(judge):
    code, out, _ = judge("--problems", KATTIS, "statement", "encode")
    assert code == 0
    assert ("-- pass 1 --\njudge   encode 2024\nprogram czw\n-- pass 2 --\njudge   decode czw\nprogram 2024"
            in out)


def test_statement_of_a_pass_fail_package_shows_input_and_answer(judge):
    code, out, _ = judge("--problems", KATTIS, "statement", "anydivisor")
    assert code == 0 and "Example 1 (sample/1)\ninput:\n12\nanswer:\n2" in out


@pytest.mark.parametrize("name", ["guess", "encode"])
def test_validate_accepts_samples_the_validator_plays(judge, name):
    code, out, err = judge("--problems", KATTIS, "validate", name)
    assert code == 0 and f"{name}: ok" in out, out + err


@pytest.mark.parametrize("name, edit, message", [
    ("guess", lambda text: text.replace("<lower", "<higher", 1),
     "the validator wrote 'higher higher lower lower lower higher higher correct', the sample shows "
     "'higher higher higher lower lower higher higher correct'"),
    ("guess", lambda text: text.replace("<correct", "correct"), "1.interaction:16: error: a line of an interaction "
                                                                 "starts with < or >"),
    ("encode", lambda text: text.replace("> 2024", "> 2025"),
     "pass 2: the validator did not accept it (2024 encoded as czw; expected 2024, got '2025')"),
    ("encode", lambda text: text.replace("< decode czw", "< decode czz"),
     "pass 2: the input is 'decode czw', the sample shows 'decode czz'"),
    ("encode", lambda text: text.split("---")[0], "the validator asked for another pass, the sample shows 1"),
])
def test_validate_names_a_sample_the_validator_would_not_play(judge, tmp_path, name, edit, message):
    folder = _copy(tmp_path, name)
    sample = folder / "data" / "sample" / "1.interaction"
    sample.write_text(edit(sample.read_text()))
    code, out, _ = judge("--problems", folder.parent, "validate", name)
    assert code == 1 and message in out, out


def test_a_pass_separator_in_an_interactive_problem_with_one_pass_is_an_error(judge, tmp_path):
    folder = _copy(tmp_path, "guess")
    sample = folder / "data" / "sample" / "1.interaction"
    sample.write_text(sample.read_text() + "---\n>1\n")
    code, out, _ = judge("--problems", folder.parent, "validate", "guess")
    assert code == 1 and "1.interaction:17: error: '---' separates passes, but this problem is not multi-pass" in out
