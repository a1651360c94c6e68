"""`judge validate` of a Kattis/ICPC package reports every fault at once, as it does for our own
problems and as verifyproblem does (issue 46): every missing .ans, every unknown problem.yaml key
(with the key it is likely a typo of), every input an input validator rejects, a refused output
validator beside them; and it grades every submission, accepted ones included, as `check` does."""

from __future__ import annotations

import shutil

from .conftest import TESTDATA

LAYOUTS = TESTDATA / "kattis_layouts"


def _copy(tmp_path, name: str):
    problems = tmp_path / "problems"
    shutil.copytree(LAYOUTS / name, problems / name)
    return problems, problems / name


def test_every_fault_of_a_package_is_said_at_once(judge, tmp_path):
    """Before: the refused output validator alone ('found 2'); `limts:` was read as no limits at all
    (2048 MiB), the two missing .ans and the rejected input were never looked at."""
    problems, package = _copy(tmp_path, "testlibbeside")
    spec = package / "problem.yaml"
    spec.write_text(spec.read_text().replace("limits:\n  time_limit: 2\n", "limts:\n  memory: 64\nlimits:\n"
                                                                               "  time_limt: 2\n"))
    (package / "output_validators" / "other.py").write_text("raise SystemExit(42)\n")
    (package / "data" / "secret" / "1.ans").unlink()
    (package / "data" / "secret" / "2.ans").unlink()
    (package / "data" / "secret" / "3.in").write_text("0 0\n")  # (no .ans either)
    code, out, err = judge("--problems", problems, "validate", "testlibbeside")
    assert code == 1, out + err
    said = out + err
    assert "problem.yaml:9: error: unknown key 'limts' in a legacy package (did you mean 'limits'?)" in said
    assert "problem.yaml:12: error: unknown key 'limits.time_limt' in a legacy package (did you mean 'time_limit'?)" in said
    assert "found 2 (output_validators/checker.cpp, output_validators/other.py)" in said
    for name in ("1", "2", "3"):
        assert f"secret/{name}.in: error: no answer file {name}.ans beside it" in said
    assert "secret/3.in: error: rejected by input validator built: both numbers are zero" in said
    assert "testlibbeside: 7 errors" in said


def test_every_submission_is_graded_accepted_ones_too(judge, tmp_path):
    """Before: only the submissions that must fail were graded; an accepted/ one that fails was 'ok'."""
    problems, package = _copy(tmp_path, "pyhelper")
    (package / "submissions" / "accepted" / "rounded.py").write_text("a, b = map(int, input().split())\n"
                                                                     "print(round((a + b) / 2))\n")
    code, out, err = judge("--problems", problems, "validate", "pyhelper")
    assert code == 1, out + err
    assert "accepted/rounded.py: error: gets WA, expected AC" in out
    assert "pyhelper: 1 error" in out


def test_a_package_without_a_time_limit_is_validated_at_the_one_check_computes(judge, tmp_path):
    """legacysum gives none: its submissions are timed first, as check times them."""
    problems, _ = _copy(tmp_path, "legacysum")
    code, out, err = judge("--problems", problems, "validate", "legacysum")
    assert code == 0, out + err
    assert "Timing 1 submission of legacysum for its time limit (none given)" in out
    assert "legacysum: ok" in out


def test_a_key_given_twice_is_a_warning_naming_both_lines(judge, tmp_path):
    """problemtools (PyYAML) silently takes a repeated key's second value; validate says so (breaker 46b:
    a package's `limits:` given twice made its margin 4x without a word). Before: 'ok', nothing said."""
    problems, package = _copy(tmp_path, "testlibbeside")
    spec = package / "problem.yaml"
    spec.write_text(spec.read_text() + "limits:\n  time_multiplier: 4\n")
    code, out, err = judge("--problems", problems, "validate", "testlibbeside")
    assert code == 0, out + err
    assert ("problem.yaml:11: warning: 'limits' is given twice (first on line 9): the second is used, as problemtools "
            "reads it") in out + err
