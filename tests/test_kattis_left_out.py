"""A package is never refused for one submission (issue 35): a submission whose expectation cannot be
read (an unknown @EXPECTED_RESULTS@ name, a submissions.yaml rule that is not a mapping or names an
unknown verdict) or whose file cannot be (a link that leads nowhere, a fifo) is left out with one note
naming it and why, in `check`, `grade` and the computed time limit; the others are graded. Such a
submission was not shown to get what it must: `check` exits 1 (JUnit red, JSON `left_out`).
Before, each of these refused the whole package (exit 2), and a fifo made the judge wait forever."""

from __future__ import annotations

import json
import os
import shutil

from .conftest import TESTDATA

LAYOUTS = TESTDATA / "kattis_layouts"
NOTES = {
    "accepted/bad_rule.py": "what it must get cannot be read: submissions/submissions.yaml:3: permitted: "
                            "'FAST' is not one of AC, WA, TLE, RTE",
    "accepted/gone.py": "cannot be read: a link that leads nowhere",
    "mixed/listed.py": "what it must get cannot be read: submissions/submissions.yaml:2: mixed/listed.py: "
                       "expected a mapping of requirements",
    "mixed/unknown_tag.py": "what it must get cannot be read: submissions/mixed/unknown_tag.py:1: "
                            "@EXPECTED_RESULTS@: unknown verdict 'SLOW'",
}


def _notes(err: str) -> dict[str, str]:
    """submission (folder/name) -> why, from the `left out` notes."""
    found = {}
    for line in err.splitlines():
        if line.startswith("judge: note: left out ("):
            why, _, path = line[len("judge: note: left out ("):].rpartition("): ")
            found["/".join(path.split("/")[-2:])] = why
    return found


def test_check_leaves_out_each_faulty_submission_with_one_note_and_grades_the_rest(judge, tmp_path):
    out_json, out_xml = tmp_path / "check.json", tmp_path / "check.xml"
    code, out, err = judge("--problems", LAYOUTS, "check", "leftout", "--json", out_json, "--junit", out_xml)
    assert code == 1, out + err  # every graded one matched, but four were not shown to
    assert _notes(err) == NOTES and err.count("left out (") == 4, err
    assert "3 of 3 solutions got their expected verdict" in out and "4 submissions left out, see the notes above" in out
    assert "leftout: time limit 1 s (computed from the submissions: slowest" in out
    assert "accepted/double.py" in out.split("leftout: time limit")[1].splitlines()[0]
    left_out = json.loads(out_json.read_text())["left_out"]
    assert {"/".join(e["solution"].split("/")[-2:]): e["reason"] for e in left_out} == NOTES
    xml = out_xml.read_text()
    assert xml.count('type="left out"') == 4 and "unknown verdict" in xml


def test_grade_grades_a_faulty_submission_and_says_why_it_is_not_checked(judge):
    folder = LAYOUTS / "leftout" / "submissions"
    code, out, err = judge("--problems", LAYOUTS, "grade", folder / "mixed" / "unknown_tag.py", "--problem", "leftout")
    assert code == 1 and "WA  passed 0/3" in out, out + err
    assert "@EXPECTED_RESULTS@: unknown verdict 'SLOW'): " in err
    code, out, err = judge("--problems", LAYOUTS, "grade", folder / "accepted" / "double.py", "--problem", "leftout")
    assert code == 0 and "AC  passed 3/3" in out, out + err  # the time limit computed without the faulty ones


def test_a_fifo_among_the_submissions_is_left_out_without_being_opened(judge, tmp_path):
    problems = tmp_path / "problems"
    shutil.copytree(LAYOUTS / "leftout", problems / "leftout", symlinks=True)
    os.mkfifo(problems / "leftout" / "submissions" / "mixed" / "pipe.py")
    code, out, err = judge("--problems", problems, "check", "leftout")
    assert code == 1
    assert _notes(err)["mixed/pipe.py"] == "cannot be read: neither a regular file nor a folder"
    assert "3 of 3 solutions got their expected verdict" in out


def test_a_submissions_file_that_cannot_be_parsed_still_refuses_the_package(judge, tmp_path):
    """Not one submission's fault: every expectation of the package depends on it."""
    problems = tmp_path / "problems"
    shutil.copytree(LAYOUTS / "leftout", problems / "leftout", symlinks=True)
    (problems / "leftout" / "submissions" / "submissions.yaml").write_text("mixed/listed.py: [WA\n")
    code, out, err = judge("--problems", problems, "check", "leftout")
    assert code == 2 and "submissions.yaml" in err, out + err


def test_validate_names_each_faulty_submission_as_an_error(judge):
    code, out, err = judge("--problems", LAYOUTS, "validate", "leftout")
    assert code == 1, out + err
    assert (out + err).count("left out by check: ") == 4 and "unknown verdict 'SLOW'" in out + err


def test_report_counts_them_too(judge, tmp_path):
    code, out, err = judge("--problems", LAYOUTS, "report", "leftout", "--out", tmp_path / "out")
    assert code == 1 and "3 got their expected verdict; 4 submissions left out" in out, out + err


def test_a_named_package_that_does_not_load_is_left_out_and_the_others_named_are_graded(judge, tmp_path):
    """`check --problems DIR SLUG...`: the named package that cannot be read is left out as in a
    folder-wide run (issue 46); before, the command timed the others, then ended at its error (exit 2),
    nothing graded. A name that is no problem there still ends the command at once."""
    problems = tmp_path / "problems"
    shutil.copytree(LAYOUTS / "legacysum", problems / "legacysum")  # (no time limit: timed first)
    shutil.copytree(LAYOUTS / "partialscore", problems / "nodata")
    shutil.rmtree(problems / "nodata" / "data")
    code, out, err = judge("--problems", problems, "check", "legacysum", "nodata", "--json", tmp_path / "check.json")
    assert code == 2, out + err
    assert "nodata/data: the package has no tests (data/sample or data/secret *.in with .ans) (left out" in err
    assert "1 problem left out, not loading (nodata)" in out
    written = json.loads((tmp_path / "check.json").read_text())
    assert {s["problem"] for s in written["solutions"]} == {"legacysum"}
    assert [p["problem"] for p in written["problems_left_out"]] == ["nodata"]
    code, out, err = judge("--problems", problems, "check", "legacysum", "nodat")
    assert code == 2 and "unknown problem 'nodat' (did you mean 'nodata'?)" in err and "Checking" not in out


def test_a_folder_without_problem_yaml_is_said_not_skipped_silently(judge, tmp_path):
    """issue 46: a package folder without problem.yaml was skipped without a word by a folder-wide
    run and was an 'unknown problem' when named. problemtools refuses it too (it reads problem.yaml
    first); now a note names it, and named it is left out as a package that does not load."""
    problems = tmp_path / "problems"
    shutil.copytree(LAYOUTS / "legacysum", problems / "legacysum")
    shutil.copytree(LAYOUTS / "legacysum", problems / "noyaml")
    (problems / "noyaml" / "problem.yaml").unlink()
    code, out, err = judge("--problems", problems, "check", "--json", tmp_path / "all.json")
    assert code == 0, out + err
    assert "judge: note: left out, no problem.yaml (a package needs one): noyaml" in err
    code, out, err = judge("--problems", problems, "check", "legacysum", "noyaml")
    assert code == 2, out + err
    assert "noyaml/problem.yaml: no problem.yaml: not a problem" in err and "(left out" in err
