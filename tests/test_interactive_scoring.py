"""Scores from an interactor or a multi-pass validator: the score files (score.txt) in the feedback
folder of the run that accepted are the test's score, as a single-pass validator's are.

testdata/kattis/guessscore is an interactive scoring package of ours (legacy format, `validation:
custom interactive score`): its interactor scores 10 for a right guess within 7 tries, 3 for a later
one; a copy of testdata/kattis/encode made a scoring package scores each test in its second pass.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from .conftest import TESTDATA

GUESSSCORE = TESTDATA / "kattis" / "guessscore"
ENCODE = TESTDATA / "kattis" / "encode"


def _scores(judge, problems: Path, solution: Path, slug: str, report: Path) -> tuple[dict, dict]:
    """grade's JSON: each test's (verdict, score, message) by name, and the solution's score."""
    code, out, err = judge("--problems", problems, "grade", solution, "--problem", slug, "-j", "1", "--json", report)
    assert code in (0, 1), out + err
    data = json.loads(report.read_text())
    return {t["name"]: (t["verdict"], t.get("score"), t.get("message", "")) for t in data["tests"]}, data["score"]


def test_check_grades_the_interactive_scoring_package_by_its_interactors_scores(judge, tmp_path):
    code, out, err = judge("--problems", GUESSSCORE.parent, "check", "guessscore", "-j", "2", "--json", tmp_path / "r.json")
    assert code == 0, out + err
    solutions = {s["solution"].rsplit("/", 1)[-1]: s for s in json.loads((tmp_path / "r.json").read_text())["solutions"]}
    assert {name: s["score"]["total"] for name, s in solutions.items()} == {"bisect.py": 30, "upwards.py": 16, "zero.py": 0}


def test_each_interactive_test_scores_what_its_interactor_wrote(judge, tmp_path):
    tests, score = _scores(judge, GUESSSCORE.parent, GUESSSCORE / "submissions/partially_accepted/upwards.py",
                           "guessscore", tmp_path / "r.json")
    assert {name: (verdict, points) for name, (verdict, points, _) in tests.items()} == {
        "sample/1": ("AC", 3), "secret/high": ("AC", 3), "secret/low": ("AC", 10), "secret/middle": ("AC", 3)}
    assert score["total"] == 16


def test_an_interactor_that_writes_a_score_on_a_rejection_is_the_problems_fault(judge, tmp_path):
    package = Path(shutil.copytree(GUESSSCORE, tmp_path / "problems" / "guessscore"))
    interactor = package / "output_validators" / "guessscore" / "guessscore.py"
    interactor.write_text(interactor.read_text().replace("sys.exit(43)", 'open(feedback + "score.txt", "w").write("5")\n'
                                                                          "sys.exit(43)"))
    tests, _ = _scores(judge, package.parent, package / "submissions/wrong_answer/zero.py", "guessscore",
                       tmp_path / "r.json")
    verdict, _, message = tests["sample/1"]
    assert verdict == "IE" and "rejected the output and wrote score.txt" in message


def test_a_multi_pass_scoring_test_scores_what_its_last_pass_wrote(judge, tmp_path):
    """encode as a scoring package: pass 2's validator scores 8 minus the length of the word."""
    package = Path(shutil.copytree(ENCODE, tmp_path / "problems" / "encode"))
    spec = package / "problem.yaml"
    spec.write_text(spec.read_text().replace("type: multi-pass", "type: [multi-pass, scoring]"))
    validator = package / "output_validator" / "validator.py"
    source = validator.read_text()
    final = "        reject(feedback_dir, f\"expected {number}, got {' '.join(words)[:40]!r}\")\n    sys.exit(42)\n"
    assert final in source
    validator.write_text(source.replace(final, final.replace(
        "    sys.exit(42)", '    open(feedback_dir + "score.txt", "w").write(str(8 - len(argument)))\n    sys.exit(42)')))
    tests, score = _scores(judge, package.parent, package / "submissions/accepted/base26.py", "encode", tmp_path / "r.json")
    assert {name: points for name, (_, points, _) in tests.items()} == {
        "sample/1": 5, "secret/large": 1, "secret/two_letters": 6, "secret/zero": 7}  # czw, 7 letters, zz, a
    assert score["total"] == 19
