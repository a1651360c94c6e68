"""`judge.py validate` on fixture problems: every fault at once with file:line, then the proofs."""

from __future__ import annotations

import os
import pty
import shutil
import subprocess
import sys

import pytest

from tcjudge import languages
from tcjudge.protocol import ready_to_read
from tcjudge.problems.catalog import Catalog
from tcjudge.setter.validate import validate_problem

from .conftest import ROOT, TESTDATA

SETTER = TESTDATA / "setter"
GOOD = ("--problems", SETTER / "problems", "--solutions", SETTER / "solutions")


def test_clean_problems_pass_every_check(judge):
    code, out, err = judge("validate", *GOOD, "-j", "1")
    assert code == 0, out + err
    assert out.splitlines()[-3:] == ["largest: ok", "pair-sum: ok", "2 of 2 problems valid"]


def test_every_fault_is_reported_at_once_with_its_line(judge):
    code, out, _ = judge("--problems", SETTER / "bad", "--solutions", SETTER / "solutions", "validate")
    assert code == 1
    folder = SETTER / "bad" / "Binary_Code"
    lines = out.splitlines()
    assert f"{folder}/problem.yaml:8: error: time_limt: unknown field (did you mean 'time_limit'?)" in lines
    assert any(line.startswith(f"{folder}/problem.yaml:12: error: rules: rule 'len(mesage) >= 1' uses 'mesage'")
               and "did you mean 'message'?" in line for line in lines)
    assert f"{folder}/tests/edge.yml: error: test files end in .yaml: edge.yml would never run (rename it)" in lines
    assert any(line.startswith(f"{folder}/tests/examples.yaml:4: error: test example-1 breaks") for line in lines)
    assert any(line.startswith(f"{folder}/tests/examples.yaml:7: error: test example-2 breaks") for line in lines)
    assert any("'Binary_Code' is not a valid slug" in line and "'binary-code'" in line for line in lines)
    assert f"{folder}: error: no statement.md: every problem needs a statement" in lines
    assert "Binary_Code: 7 errors, 0 warnings" in lines


@pytest.fixture
def project(tmp_path):
    """A copy of the clean fixture project, to break one thing at a time."""
    shutil.copytree(SETTER / "problems", tmp_path / "problems")
    shutil.copytree(SETTER / "solutions", tmp_path / "solutions")
    return tmp_path


def _validate(judge, project, *args):
    return judge("validate", "--problems", project / "problems", "--solutions", project / "solutions", *args)


def test_a_wrong_expected_value_is_blamed_on_its_test_by_both_implementations(judge, project):
    examples = project / "problems" / "largest" / "tests" / "examples.yaml"
    examples.write_text(examples.read_text().replace("expected: 3", "expected: 4"))
    (project / "problems" / "largest" / "statement.md").write_text("values = [3, 1, 2] 4 [0] 0")
    code, out, _ = _validate(judge, project, "largest")
    assert code == 1
    assert f"{examples}:1: error: test example-0: the reference solution disagrees: expected 4, got 3" in out
    assert f"{examples}:1: error: test example-0: verify.py disagrees: expected 4, got 3" in out


def test_a_wrong_answer_that_passes_our_tests_is_reported(judge, project):
    (project / "problems" / "largest" / "tests" / "edge.yaml").unlink()
    (project / "problems" / "largest" / "generator.py").unlink()
    code, out, _ = _validate(judge, project, "largest")
    assert code == 1
    assert "caps_at_six.py: error: filed under WA but there are no tests of our own to fail: those are the files " \
           "in largest/tests/ other than examples.yaml and system.yaml" in out
    assert "generator.py writes them: `judge.py generate largest`" in out  # the judge as the test calls it
    ours = project / "problems" / "largest" / "tests" / "small.yaml"
    ours.write_text("- {name: small, args: {values: [1, 6]}, expected: 6}\n")
    code, out, _ = _validate(judge, project, "largest")
    assert code == 1 and "caps_at_six.py: error: filed under WA but passes every test of our own" in out


def test_an_example_missing_from_the_statement_and_a_stale_generator_are_reported(judge, project):
    folder = project / "problems" / "largest"
    (folder / "statement.md").write_text("# Largest\n\nNo examples here.\n")
    edge = folder / "tests" / "edge.yaml"
    edge.write_text(edge.read_text().replace("edge-max", "edge-maximum"))
    code, out, _ = _validate(judge, project, "largest")
    assert code == 1
    assert "example example-0: values, expected ([3, 1, 2]) does not appear in statement.md" in out
    assert "generator.py: error: generator.py does not reproduce tests/edge.yaml bit for bit: run " \
           "`judge.py generate largest` (or validate --generate) and review the diff" in out


@pytest.mark.parametrize("examples, first, held", [("", 0, "holds none"), ("[]\n", 0, "holds none"),
                                                   ("- {name: example-0, args: {values: [3, 1, 2]}, expected: 3}\n",
                                                    1, "holds 1 test")])
def test_an_example_of_the_statement_that_is_no_test_is_reported(judge, project, examples, first, held):
    """An empty tests/examples.yaml passed while the statement lists two examples: the first example
    without a test is an error at its line of the statement."""
    folder = project / "problems" / "largest"
    (folder / "tests" / "examples.yaml").write_text(examples)
    code, out, _ = _validate(judge, project, "largest")
    assert code == 1
    assert (f"{folder}/statement.md:{11 + 2 * first}: error: Example {first} is not a test: the statement lists 2 "
            f"examples and tests/examples.yaml {held} (each should be a test there, in the statement's order)"
            in out.splitlines()), out


def test_the_examples_a_statement_lists_are_found_in_each_style_and_never_in_a_code_block():
    """problems/ writes them "**Example 0.**" and "**0)**", or one example under "## Example"."""
    from tcjudge.setter.validate import listed_examples

    bold = "# T\n\n## Examples\n\n**0)** `a = 1` -> `2`\n\n1. a list in the note\n\n**1)** `a = 2` -> `3`\n"
    assert listed_examples(bold) == [(5, "Example 0"), (9, "Example 1")]
    one = "## Constraints\n\n- a\n\n## Example\n\nInput:\n\n```\n2\n1. 2)\n## 3)\n```\n\n## Notes\n\n**4)** x\n"
    assert listed_examples(one) == [(5, "the example")]
    assert listed_examples("# T\n\nNo examples here.\n\n## Examples\n") == []


def test_generate_writes_what_validate_asks_for_with_the_judges_own_python(judge, project):
    """issue 33: validate said 'run it', and the system python3 has no judge to import."""
    folder = project / "problems" / "largest"
    edge = folder / "tests" / "edge.yaml"
    made = edge.read_text()
    edge.unlink()
    code, out, _ = _validate(judge, project, "largest")
    assert code == 1 and "writes tests/edge.yaml, which is not there yet: run `judge.py generate largest`" in out
    code, out, err = judge("generate", "--problems", project / "problems", "--solutions", project / "solutions",
                           "largest")
    assert (code, out) == (0, "largest: generator.py wrote tests/edge.yaml (new)\n"), out + err
    assert edge.read_text() == made
    code, out, _ = judge("generate", "--problems", project / "problems", "--solutions", project / "solutions")
    assert code == 0 and "largest: generator.py wrote tests/edge.yaml (unchanged)" in out  # every one with a generator
    edge.write_text(made.replace("edge-max", "edge-maximum"))
    code, out, _ = _validate(judge, project, "largest", "--generate")
    assert code == 0 and out.startswith("largest: generator.py wrote tests/edge.yaml (changed)\n"), out
    assert edge.read_text() == made


def test_a_failing_generator_writes_nothing_and_fails(judge, project):
    folder = project / "problems" / "largest"
    before = {p.name: p.read_bytes() for p in (folder / "tests").iterdir()}
    generator = folder / "generator.py"
    generator.write_text(generator.read_text() + "\nraise SystemExit('out of ideas')\n")
    code, out, _ = judge("generate", "--problems", project / "problems", "--solutions", project / "solutions",
                         "largest")
    assert code == 1 and out == f"{generator}: error: generator.py failed (exit status 1): out of ideas\n", out
    assert {p.name: p.read_bytes() for p in (folder / "tests").iterdir()} == before


def test_verify_disagreeing_on_random_inputs_is_reported(judge, project):
    verify = project / "problems" / "largest" / "verify.py"
    verify.write_text(verify.read_text().replace("sorted(values)[-1]", "sorted(values)[-1] if len(values) != 9 else 0"))
    code, out, _ = _validate(judge, project, "largest")
    assert code == 1 and "the reference and verify.py disagree on {'values': [" in out


def test_stray_files_are_warnings(judge, project):
    (project / "problems" / "largest" / "notes.txt").write_text("todo")
    (project / "problems" / "largest" / "tests" / "README").write_text("todo")
    code, out, _ = _validate(judge, project, "largest")
    assert code == 0  # warnings alone never fail (--strict makes them)
    assert "largest/notes.txt: warning: not read by the judge" in out
    assert "largest/tests/README: warning: not a test file (test files end in .yaml): never read" in out
    assert "largest: 0 errors, 2 warnings" in out


def test_unknown_problem_is_a_usage_error(judge):
    code, _, err = judge("validate", *GOOD, "nope")
    assert code == 2 and "unknown problem 'nope'" in err


def test_problems_and_solutions_default_to_the_current_folder(judge, project, monkeypatch):
    monkeypatch.chdir(project)
    code, out, _ = judge("validate", "largest")
    assert code == 0 and "largest: ok" in out
    code, out, _ = judge("check", "--json", project / "check.json")
    assert code == 0 and "5 of 5 solutions got their expected verdict" in out


def test_a_broken_custom_checker_gives_ie_not_a_verdict_against_the_solution(judge, project):
    checker = project / "problems" / "pair-sum" / "checker.py"
    checker.write_text("def check(args, expected, got):\n    return args['missing']\n")
    code, out, _ = judge("grade", project / "solutions" / "pair-sum" / "accepted" / "last_pair.py",
                         *("--problems", project / "problems", "--solutions", project / "solutions"))
    assert code == 1
    assert "IE" in out and "the problem's checker failed: KeyError: 'missing'" in out


def test_checker_problem_accepts_another_right_answer(judge):
    code, out, _ = judge("grade", SETTER / "solutions" / "pair-sum" / "accepted" / "last_pair.py", *GOOD)
    assert code == 0 and "passed 4/4" in out


@pytest.mark.parametrize("line, message", [
    ("checker: unorderd", "checker: unknown checker 'unorderd' (did you mean 'unordered'?)"),
    ("checker: [custom, unordered]", "'custom' decides alone"),
])
def test_checker_names_are_checked(project, line, message):
    from tcjudge.problems.loader import inspect_problem

    spec = project / "problems" / "largest" / "problem.yaml"
    spec.write_text(spec.read_text() + line + "\n")
    _, findings = inspect_problem(spec.parent)
    assert any(message in str(error) and str(error).startswith(f"{spec}:") for error in findings.errors)


def test_a_checker_py_that_is_never_used_is_a_warning(judge, project):
    spec = project / "problems" / "pair-sum" / "problem.yaml"
    spec.write_text(spec.read_text().replace("checker: custom", "checker: unordered"))
    code, out, _ = _validate(judge, project, "pair-sum")
    assert code == 1
    assert "pair-sum/checker.py: warning: checker.py is never used: problem.yaml says checker: unordered" in out


def test_the_slug_index_is_refused_by_validate_and_new(judge, project):
    """report --out writes index.html beside each problem's <slug>.html: a problem named index would clash."""
    (project / "problems" / "largest").rename(project / "problems" / "index")
    code, out, _ = _validate(judge, project, "index", "--random-cases", "1")
    assert code == 1
    assert f"{project / 'problems' / 'index'}: error: problem folder name 'index' is reserved: report --out" in out
    code, _, err = judge("new", "index", "--class", "B", "--method", "m", "--signature", "int a -> int",
                         "--problems", project / "fresh", "--solutions", project / "fresh-solutions")
    assert code == 2 and "'index' is reserved" in err and not (project / "fresh").exists()


def test_warnings_alone_pass_and_strict_makes_them_fail(judge, project):
    (project / "problems" / "largest" / "notes.txt").write_text("scratch")
    code, out, _ = _validate(judge, project, "largest")
    assert code == 0, out
    assert "largest: 0 errors, 1 warning" in out
    assert out.splitlines()[-1] == "1 of 1 problem valid"
    code, out, _ = _validate(judge, project, "largest", "--strict")
    assert code == 1, out
    assert out.splitlines()[-1] == "0 of 1 problem valid (--strict: warnings fail)"


@pytest.mark.parametrize("old_path", ["harness.testgen", "harness.problems.testgen"])
def test_a_generator_on_an_earlier_documented_import_path_still_validates(judge, project, old_path):
    generator = project / "problems" / "largest" / "generator.py"
    generator.write_text(generator.read_text().replace("from tcjudge.testgen import", f"from {old_path} import"))
    code, out, err = _validate(judge, project, "largest")
    assert code == 0, out + err
    assert (f"generator.py: warning: generator.py: '{old_path}' is deprecated: import tcjudge.testgen instead"
            in out), out
    assert code == 0


# -- progress --------------------------------------------------------------------------------------

class Recorder:
    """A progress that keeps each phase as [what, total, steps counted]."""

    def __init__(self):
        self.phases = []

    def phase(self, what, total=None):
        self.phases.append([what, total, 0])

    def advance(self):
        self.phases[-1][2] += 1


def test_validate_tells_each_long_phase_and_counts_its_steps(project):
    """validate printed nothing for minutes while verify.py ran: each proof is now a phase, counted."""
    catalog = Catalog(project / "problems", project / "solutions", languages.EXTENSIONS)
    recorder = Recorder()
    findings = validate_problem(catalog, "largest", random_cases=7, progress=recorder)
    assert not findings.errors, findings.errors
    assert recorder.phases == [["the reference solution on every test", 4, 4], ["verify.py on every test", 4, 4],
                               ["the reference and verify.py on random inputs", 7, 7],
                               ["generator.py in a copy of the folder", None, 0],
                               ["grading the stored solutions that should fail (1)", 2, 2]]


def test_validate_draws_its_progress_on_a_terminal_on_stderr_alone(project):
    """stdout and stderr each a terminal (a pty of its own): the live line is drawn on stderr, and
    stdout holds the findings alone, as off a terminal."""
    verify = project / "problems" / "largest" / "verify.py"
    verify.write_text("import time\n" + verify.read_text().replace("    return", "    time.sleep(0.2)\n    return"))
    (out_reader, out_writer), (err_reader, err_writer) = pty.openpty(), pty.openpty()
    judge = subprocess.Popen([sys.executable, str(ROOT / "judge.py"), "--history", str(project / "history.sqlite"),
                              "validate", "--problems", str(project / "problems"), "--solutions",
                              str(project / "solutions"), "largest", "--random-cases", "3"],
                             stdin=subprocess.DEVNULL, stdout=out_writer, stderr=err_writer,
                             env=dict(os.environ, TERM="xterm", COLUMNS="120"))
    os.close(out_writer)
    os.close(err_writer)
    got, open_ends = {out_reader: b"", err_reader: b""}, {out_reader, err_reader}
    while open_ends:
        for end in ready_to_read(list(open_ends), 60.0):
            try:
                data = os.read(end, 65536)
            except OSError:  # EIO: the judge has closed its side
                data = b""
            got[end] += data
            if not data:
                open_ends.discard(end)
                os.close(end)
    assert judge.wait() == 0
    assert got[out_reader].decode() == "largest: ok\r\n1 of 1 problem valid\r\n"
    assert "validating largest: " in got[err_reader].decode()


def test_a_key_of_our_format_given_twice_is_an_error_naming_both_lines(judge, project):
    """YAML's loader keeps a repeated key's second value without a word; in our own format that is a
    mistake to fix, not a reading to guess (before: the second time_limit was used silently)."""
    spec = project / "problems" / "largest" / "problem.yaml"
    lines = spec.read_text().splitlines()
    spec.write_text("\n".join(lines) + "\ntime_limit: 9\n")
    code, out, err = _validate(judge, project)
    assert code == 1, out + err
    first = next(number for number, line in enumerate(lines, 1) if line.startswith("time_limit:"))
    assert f"problem.yaml:{len(lines) + 1}: error: 'time_limit' is given twice (first on line {first}): say it once" in out
