"""stress, challenge, calibrate and new on the fixture problems under testdata/setter/."""

from __future__ import annotations

import re
import shutil

import pytest
import yaml

from tcjudge.problems.loader import load_problem

from .conftest import FIXTURE_PROBLEMS, ROOT, TESTDATA

SETTER = TESTDATA / "setter"
FIXTURES = ("--problems", SETTER / "problems", "--solutions", SETTER / "solutions")
CAPS_AT_SIX = SETTER / "solutions" / "largest" / "wrong_answer" / "caps_at_six.py"
LARGEST_REFERENCE = SETTER / "solutions" / "largest" / "accepted" / "reference.py"


@pytest.fixture
def project(tmp_path):
    shutil.copytree(SETTER / "problems", tmp_path / "problems")
    shutil.copytree(SETTER / "solutions", tmp_path / "solutions")
    return tmp_path


def _in(project):
    return ("--problems", project / "problems", "--solutions", project / "solutions")


# -- stress ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("jobs", ["1", "2"])
def test_stress_shrinks_to_the_known_minimal_counterexample(judge, read_json, tmp_path, jobs):
    """caps_at_six is wrong exactly when some value is 7 or more: the minimal input is [7]."""
    target = tmp_path / "stress.json"
    code, out, _ = judge("stress", CAPS_AT_SIX, *FIXTURES, "--seed", "5", "--time", "60", "-j", jobs,
                         "--json", target)
    assert code == 1
    data = read_json(target)
    assert set(data) == {"format_version", "found", "args", "expected", "got", "verdict", "cases", "seconds"}
    assert data["found"] is True and data["verdict"] == "WA"
    assert (data["args"], data["expected"], data["got"]) == ({"values": [7]}, 7, 6)
    assert data["cases"] >= 1 and data["seconds"] > 0
    block = out[out.index("- name: stress-1"):].split("\nwrote ")[0]
    pasted = yaml.safe_load(block)
    assert pasted == [{"name": "stress-1", "args": {"values": [7]}, "expected": 7, "note": "found by stress: WA"}]


def test_stress_finds_nothing_in_a_right_solution(judge, read_json, tmp_path):
    target = tmp_path / "stress.json"
    code, out, _ = judge("stress", LARGEST_REFERENCE, *FIXTURES, "--time", "1", "--json", target)
    assert code == 0 and "no counterexample found" in out
    data = read_json(target)
    assert data["found"] is False and data["args"] is None and data["cases"] > 0


def test_stress_catches_the_wrong_stored_solution_of_a_checker_problem(judge):
    wrong = SETTER / "solutions" / "pair-sum" / "wrong_answer" / "same_position_twice.py"
    code, out, _ = judge("stress", wrong, *FIXTURES, "--seed", "1", "--time", "60")
    assert code == 1 and "counterexample (WA" in out


def test_stress_keeps_only_inputs_the_rules_allow(judge, read_json, tmp_path):
    """Adder's rule: factor 0 only with no values; a solution failing on factor 0 can only be caught there."""
    solution = tmp_path / "zero_factor.py"
    solution.write_text("class Adder:\n    def add(self, values, factor):\n"
                        "        return 1 if factor == 0 else sum(values) * factor\n")
    target = tmp_path / "stress.json"
    code, _, _ = judge("stress", solution, "--problems", FIXTURE_PROBLEMS, "--against",
                       TESTDATA / "stored" / "adder" / "accepted" / "straightforward.py", "--seed", "2", "--time", "60",
                       "--json", target)
    assert code == 1
    assert read_json(target)["args"] == {"values": [], "factor": 0}


def test_stress_add_keeps_the_counterexample_as_a_test(judge, project):
    wrong = project / "solutions" / "largest" / "wrong_answer" / "caps_at_six.py"
    code, out, _ = judge("stress", wrong, *_in(project), "--seed", "5", "--time", "60", "--add")
    assert code == 1 and "kept as test stress-1 in" in out
    problem = load_problem(project / "problems" / "largest")
    kept = [t for t in problem.tests if t.file == "stress.yaml"]
    assert [(t.name, t.args, t.expected) for t in kept] == [("stress-1", ((7,),), 7)]
    code, out, _ = judge("stress", wrong, *_in(project), "--seed", "5", "--time", "60", "--add")
    assert "kept as test stress-2 in" in out


def test_stress_add_lists_the_file_when_problem_yaml_lists_its_tests(judge, project):
    spec = project / "problems" / "largest" / "problem.yaml"
    spec.write_text(spec.read_text() + "tests: [examples.yaml, edge.yaml]\n")
    wrong = project / "solutions" / "largest" / "wrong_answer" / "caps_at_six.py"
    code, _, _ = judge("stress", wrong, *_in(project), "--seed", "5", "--time", "60", "--add")
    assert code == 1 and "tests: [examples.yaml, edge.yaml, stress.yaml]" in spec.read_text()


def test_stress_of_a_solution_that_does_not_load_is_a_usage_error(judge, tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("class Largest:\n    def largest(self, values)\n")
    code, _, err = judge("stress", broken, *FIXTURES, "--problem", "largest", "--time", "1")
    assert code == 2 and "the solution does not load: CE" in err


# -- challenge -------------------------------------------------------------------------------------

def test_successful_challenge_exits_1_with_expected_and_got(judge, project):
    wrong = project / "solutions" / "largest" / "wrong_answer" / "caps_at_six.py"
    code, out, _ = judge("challenge", wrong, "--args", '{"values": [9, 3]}', *_in(project), "--add")
    assert code == 1
    assert "challenge succeeded: WA: expected 9, got 6" in out and "expected: 9\ngot: 6" in out
    kept = [t for t in load_problem(project / "problems" / "largest").tests if t.file == "challenge.yaml"]
    assert [(t.name, t.args, t.expected) for t in kept] == [("challenge-1", ((9, 3),), 9)]


def test_unsuccessful_challenge_exits_0(judge):
    code, out, _ = judge("challenge", CAPS_AT_SIX, "--args", '{"values": [5, 3]}', *FIXTURES)
    assert code == 0 and "survives" in out


@pytest.mark.parametrize("args, reason", [
    ('{"values": [500]}', "invalid challenge: values: value 500 outside [0, 100]"),
    ('{"value": [5]}', "'value' is not a parameter (did you mean 'values'?)"),
    ('{"values": [1.5]}', "invalid challenge: argument values: element 0: expected int, got double (1.5)"),
    ('{"values": []}', "invalid challenge: values: length 0 outside [1, 10]"),
    ("[1]", "--args must be a JSON object"),
    ("{", "--args is not JSON"),
])
def test_invalid_challenge_is_refused_with_the_reason(judge, args, reason):
    code, out, err = judge("challenge", CAPS_AT_SIX, "--args", args, *FIXTURES)
    assert code == 2 and reason in err and out == ""


def test_challenge_checks_the_rules(judge):
    code, _, err = judge("challenge", TESTDATA / "solutions" / "accepted.py", "--problems", FIXTURE_PROBLEMS,
                         "--solutions", TESTDATA / "stored", "--args", '{"values": [1], "factor": 0}')
    assert code == 2 and "factor 0 is only allowed with no values" in err


# -- calibrate -------------------------------------------------------------------------------------

# Spends `seconds` of CPU on the one ten-value test (edge-last) and nothing on the others.
BURN = "import time\n\n\nclass Largest:\n    def largest(self, values):\n" \
       "        end = time.process_time() + ({seconds} if len(values) == 10 else 0)\n" \
       "        while time.process_time() < end:\n            pass\n        return max(values)\n"


def test_calibrate_proposes_a_rounded_limit_and_writes_it(judge, project):
    spec = project / "problems" / "largest" / "problem.yaml"
    code, out, _ = judge("calibrate", "largest", *_in(project))
    assert code == 0
    assert "time limit:  0.1 s (x3, rounded up); problem.yaml had 1 s" in out
    assert "warning: the 1 s limit is far above the slowest accepted run" in out
    assert "time_limit: 1\n" in spec.read_text()
    code, out, _ = judge("calibrate", "largest", *_in(project), "--write")
    assert code == 0 and "time_limit: 0.1\n" in spec.read_text() and "far above" not in out
    assert load_problem(spec.parent).time_limit == 0.1


def test_calibrate_warns_about_a_sensitive_limit_and_a_slow_accepted_solution(judge, project):
    """Limit 0.2 s: a TLE solution needing 0.24 s passes at 0.3 s; an accepted one needing 0.13 s is
    close. (Short runs: the wall-clock backstop, 2x + 1 s, stays far away even on a busy machine.)"""
    solutions = project / "solutions" / "largest"
    (solutions / "time_limit_exceeded").mkdir()
    (solutions / "time_limit_exceeded" / "just_too_slow.py").write_text(BURN.format(seconds=0.24))
    (solutions / "accepted" / "slowish.py").write_text(BURN.format(seconds=0.13))
    spec = project / "problems" / "largest" / "problem.yaml"
    spec.write_text(spec.read_text().replace("time_limit: 1", "time_limit: 0.2"))
    code, out, _ = judge("calibrate", "largest", *_in(project))
    assert code == 0
    assert "slowish.py, test edge-last)" in out  # the slowest accepted run
    assert re.search(r"just_too_slow\.py \(filed as TLE\) needs x1\.\d+ the 0\.2 s limit \(2\d\d ms CPU on "
                     r"edge-last, its slowest test\), within 1\.5x of it: the limit is sensitive", out), out
    assert "slowish.py uses" in out and "ms on edge-last, more than half the 0.2 s limit" in out


def test_calibrate_gives_the_margins_between_the_slowest_ac_and_the_fastest_tle(judge, project):
    """As BAPCtools prints them. Limit 0.2 s: the accepted solutions need at most 0.05 s; the two TLE
    solutions 0.4 s and 2 s on one test, timed up to 2.25x the limit (0.45 s)."""
    solutions = project / "solutions" / "largest"
    (solutions / "time_limit_exceeded").mkdir()
    (solutions / "time_limit_exceeded" / "slow.py").write_text(BURN.format(seconds=0.4))
    (solutions / "time_limit_exceeded" / "slower.py").write_text(BURN.format(seconds=2))
    (solutions / "accepted" / "slowish.py").write_text(BURN.format(seconds=0.05))
    spec = project / "problems" / "largest" / "problem.yaml"
    spec.write_text(spec.read_text().replace("time_limit: 1", "time_limit: 0.2"))
    code, out, _ = judge("calibrate", "largest", *_in(project))
    assert code == 0, out
    lines = dict(line.split(":", 1) for line in out.splitlines() if line.startswith(("slowest AC", "fastest TLE", "margin")))
    assert re.fullmatch(r"  5\d\.\d ms CPU \(.*slowish\.py, test edge-last\)", lines["slowest AC"]), out
    assert re.fullmatch(r" 4\d\d\.\d ms CPU \(.*/slow\.py, test edge-last\)", lines["fastest TLE"]), out
    assert re.fullmatch(r"      the fastest TLE is x[67]\.\d+ the slowest AC; the 0\.2 s limit is x[34]\.\d+ "
                        r"above the slowest AC and x2\.\d+ below the fastest TLE", lines["margin"]), out
    (solutions / "time_limit_exceeded" / "slow.py").unlink()  # the other one is stopped at 0.45 s
    code, out, _ = judge("calibrate", "largest", *_in(project))
    assert re.search(r"fastest TLE: at least 4\d\d\.\d ms CPU \(.*/slower\.py, test edge-last; stopped at 2\.25x the "
                     r"0\.2 s limit\)\nmargin: +the fastest TLE is at least x", out), out


def test_calibrate_says_a_tle_solution_passes_at_the_limit_and_claims_no_margin_above_it(judge, project):
    """A solution filed as TLE that needs half the 1 s limit passes at it: said so, with the CPU time
    measured, never "passes at 1.5x" nor the limit "below the fastest TLE"."""
    (project / "solutions" / "largest" / "time_limit_exceeded").mkdir()
    (project / "solutions" / "largest" / "time_limit_exceeded" / "x.py").write_text(BURN.format(seconds=0.5))
    code, out, _ = judge("calibrate", "largest", *_in(project))
    assert code == 0, out
    assert re.search(r"time_limit_exceeded/x\.py \(filed as TLE\) passes at the 1 s limit \([56]\d\d ms CPU on "
                     r"edge-last, its slowest test\): it is not a TLE solution, or the limit is too high", out), out
    assert re.search(r"fastest TLE: [56]\d\d\.\d ms CPU \(.*/x\.py, test edge-last; it passes at the 1 s "
                     r"limit\)", out), out
    assert re.search(r"the 1 s limit is x\d+ above the slowest AC and the fastest TLE passes under it "
                     r"\(x0\.[56]\d* of it\)", out), out
    assert "1.5x" not in out and "below the fastest TLE" not in out


def test_calibrate_says_when_no_tle_solution_is_stored(judge, project):
    code, out, _ = judge("calibrate", "largest", *_in(project))
    assert code == 0 and "fastest TLE: none stored (solutions/largest/time_limit_exceeded/)" in out


def test_calibrate_refuses_when_an_accepted_solution_fails(judge, project):
    shutil.copy(project / "solutions" / "largest" / "wrong_answer" / "caps_at_six.py",
                project / "solutions" / "largest" / "accepted" / "misfiled.py")
    code, out, _ = judge("calibrate", "largest", *_in(project), "--write")
    assert code == 1 and "misfiled.py is filed as accepted but gets WA" in out
    assert "time_limit: 1\n" in (project / "problems" / "largest" / "problem.yaml").read_text()


# -- new -------------------------------------------------------------------------------------------

def test_new_writes_a_folder_that_loads_and_validate_says_what_to_do_next(judge, tmp_path):
    where = ("--problems", tmp_path / "problems", "--solutions", tmp_path / "solutions")
    code, out, _ = judge("new", "binary-code", "--class", "BinaryCode", "--method", "decode",
                         "--signature", "String message, int[][] grid -> String[]", *where)
    assert code == 0 and "next, fill in what validate checks:" in out
    for name in ("statement.md", "examples.yaml", "generator.py", "verify.py", "reference.py"):  # issue 33
        assert re.search(rf"^  \S*{name} +\S", out, re.MULTILINE), (name, out)
    assert out.endswith("then run: judge.py generate binary-code && judge.py validate binary-code\n"), out
    problem = load_problem(tmp_path / "problems" / "binary-code")
    assert problem.signature == "String[] decode(String message, int[][] grid)"
    for name in ("statement.md", "generator.py", "verify.py", "tests/examples.yaml"):
        assert (problem.path / name).is_file()
    assert (tmp_path / "solutions" / "binary-code" / "accepted" / "reference.py").is_file()
    code, out, _ = judge("validate", *where)
    assert code == 1
    assert "the reference solution raised NotImplementedError: write the reference solution here" in out
    assert "verify.py raised NotImplementedError" in out


@pytest.mark.parametrize("slug", ["sum-two", "doorsgame"])
def test_statement_numbers_each_example_as_its_text_does(judge, tmp_path, slug):
    """One numbering: a statement's "Example 0" (new's own, or TopCoder's in doorsgame) is listed as
    Example 0, the test example-0; the list said Example 1 (example-0)."""
    problems = ROOT / "problems"
    if slug == "sum-two":  # as `judge new` writes it
        problems = tmp_path / "problems"
        judge("new", slug, "--class", "SumTwo", "--method", "solve", "--signature", "int a, int b -> int",
              "--problems", problems, "--solutions", tmp_path / "solutions")
    code, out, _ = judge("--problems", problems, "statement", slug)
    assert code == 0
    in_text = re.findall(r"^\*\*Example (\d+)\.\*\*", out, re.MULTILINE)
    listed = re.findall(r"^Example (\d+) \(example-(\d+)\)$", out, re.MULTILINE)
    assert in_text and listed == [(number, number) for number in in_text], out


@pytest.mark.parametrize("slug, signature, reason", [
    ("Binary_Code", "int a -> int", "'Binary_Code' is not a valid slug"),
    ("binary-code", "integer a -> int", "unknown type 'integer'"),
    ("binary-code", "int a", "expected 'TYPE name, TYPE name -> TYPE'"),
    ("binary-code", "int a, int a -> int", "parameter names must be unique"),
    ("binary-code", "int[] class -> int", "--signature: parameter name 'class' is a Python keyword"),
    ("binary-code", "int self -> int", "'self' is the method's own first parameter"),
])
def test_new_refuses_bad_slugs_and_signatures(judge, tmp_path, slug, signature, reason):
    code, _, err = judge("new", slug, "--class", "B", "--method", "m", "--signature", signature,
                         "--problems", tmp_path / "problems", "--solutions", tmp_path / "solutions")
    assert code == 2 and reason in err
    assert not (tmp_path / "problems").exists()


@pytest.mark.parametrize("class_name, method, reason", [
    ("def", "m", "--class: 'def' is a Python keyword"),
    ("B", "lambda", "--method: 'lambda' is a Python keyword"),
])
def test_new_refuses_keywords_as_class_or_method(judge, tmp_path, class_name, method, reason):
    code, _, err = judge("new", "binary-code", "--class", class_name, "--method", method, "--signature",
                         "int a -> int", "--problems", tmp_path / "problems", "--solutions", tmp_path / "solutions")
    assert code == 2 and reason in err
    assert not (tmp_path / "problems").exists()


def test_new_refuses_an_existing_folder(judge, project):
    code, _, err = judge("new", "largest", "--class", "B", "--method", "m", "--signature", "int a -> int",
                         *_in(project))
    assert code == 2 and "already exists" in err


def test_stress_and_challenge_need_a_method_problem(judge):
    from .conftest import ROOT

    program = ROOT / "solutions" / "chefgm" / "accepted" / "reference.py"
    code, _, err = judge("stress", program, "--problem", "chefgm", "--time", "1")
    assert code == 2 and "chefgm is a stdin problem: stress and challenge need declared parameter types" in err
    code, _, err = judge("challenge", program, "--problem", "chefgm", "--args", "{}")
    assert code == 2 and "chefgm is a stdin problem" in err


def test_small_scales_make_sum_rules_satisfiable():
    """Mankala's rule (at most 30 pieces over twelve pits of up to 30) rejects nearly every whole-range
    draw; drawing a scale first makes most inputs valid, and every drawn input satisfies the rules."""
    from hypothesis import HealthCheck, Phase, given, settings

    from tcjudge.setter.inputs import input_strategy
    from .conftest import ROOT

    problem = load_problem(ROOT / "problems" / "mankala")
    seen = []

    @settings(database=None, max_examples=200, deadline=None, phases=[Phase.generate],
              suppress_health_check=[HealthCheck.too_slow])
    @given(input_strategy(problem))
    def draw(values):
        assert problem.input_problems(values) == []
        seen.append(values)

    draw()  # hypothesis's filter_too_much health check would fail this if most draws were rejected
    assert len(seen) == 200 and any(sum(v["player1"]) + sum(v["player2"]) > 12 for v in seen)


# -- solution-controlled text, a failing reference, --source-limit ---------------------------------

HOSTILE = "class Largest:\n    def largest(self, values):\n        raise ValueError('\\x1b[31mAC\\r\\u202e')\n"


def test_stress_and_challenge_escape_the_solution_s_message(judge, read_json, tmp_path):
    solution = tmp_path / "hostile.py"
    solution.write_text(HOSTILE)
    code, out, err = judge("challenge", solution, "--args", '{"values": [9]}', *FIXTURES)
    assert code == 1 and "\\x1b[31mAC\\x0d\\u202e" in out
    target = tmp_path / "stress.json"
    code, out2, err2 = judge("stress", solution, *FIXTURES, "--seed", "1", "--time", "60", "--json", target)
    assert code == 1 and "\\x1b[31mAC\\x0d\\u202e" in out2
    for text in (out, err, out2, err2, target.read_text()):
        assert "\x1b" not in text and "\r" not in text and "\u202e" not in text


@pytest.mark.parametrize("command", ["stress", "challenge"])
def test_a_failing_reference_is_an_error_not_a_counterexample(judge, tmp_path, command):
    reference = tmp_path / "reference.py"
    reference.write_text("class Largest:\n    def largest(self, values):\n        raise ValueError('\\x1b[2Joops')\n")
    (tmp_path / "solutions" / "largest" / "accepted").mkdir(parents=True)
    if command == "stress":
        args = ("stress", CAPS_AT_SIX, "--problems", SETTER / "problems", "--against", reference, "--seed", "1",
                "--time", "60", "--json", tmp_path / "stress.json")
    else:
        shutil.copy(reference, tmp_path / "solutions" / "largest" / "accepted" / "reference.py")
        args = ("challenge", CAPS_AT_SIX, "--problems", SETTER / "problems", "--solutions", tmp_path / "solutions",
                "--args", '{"values": [9]}')
    code, out, err = judge(*args)
    assert code == 2 and "counterexample" not in out and not (tmp_path / "stress.json").exists()
    [line] = err.strip().splitlines()
    assert "reference.py: the reference fails on {\"values\": [" in line
    assert "RE: ValueError: \\x1b[2Joops" in line and "\x1b" not in line


def _padded(path, size_kib=2):
    return path.read_text() + "#" * (size_kib * 1024) + "\n"


def test_source_limit_reaches_stress_calibrate_and_validate(judge, project):
    solutions = project / "solutions" / "largest"
    big = project / "big.py"
    big.write_text(_padded(solutions / "wrong_answer" / "caps_at_six.py"))
    code, _, err = judge("--source-limit", "1", "stress", big, *_in(project), "--problem", "largest", "--time", "1")
    assert code == 2 and "the solution does not load: CE" in err and "over the 1 KiB limit" in err
    (solutions / "accepted" / "big.py").write_text(_padded(solutions / "accepted" / "reference.py"))
    code, out, _ = judge("calibrate", "largest", *_in(project), "--source-limit", "1")
    assert code == 1 and "big.py is filed as accepted but gets CE" in out
    (solutions / "accepted" / "big.py").unlink()
    (solutions / "compile_error").mkdir()  # compiles, but not within 1 KiB
    (solutions / "compile_error" / "big.py").write_text(_padded(solutions / "accepted" / "reference.py"))
    code, out, _ = judge("validate", "largest", *_in(project), "--random-cases", "10", "--source-limit", "1")
    assert code == 0 and "passes every test" not in out


# -- every language stress and challenge grade ---------------------------------------------------------

ROXOR = ("--problems", ROOT / "problems", "--solutions", ROOT / "solutions")
COMPILED = [pytest.param("no_equal_targets.cpp", "odious_grundy.cpp", "g++", id="cpp"),
            pytest.param("NoEqualTargets.java", "OdiousGrundy.java", "javac", id="java")]


@pytest.mark.parametrize("wrong, right, tool", COMPILED)
def test_stress_and_challenge_grade_compiled_solutions_and_references(judge, read_json, tmp_path, wrong, right, tool):
    """Before: a C++ or Java file was read as Python ("does not load: CE: SyntaxError", exit 2)."""
    if not shutil.which(tool):
        pytest.skip(f"{tool} is not installed here")
    wrong_path = ROOT / "solutions" / "roxor" / "wrong_answer" / wrong
    reference = ROOT / "solutions" / "roxor" / "accepted" / right
    target = tmp_path / "stress.json"
    code, out, err = judge(*ROXOR, "stress", wrong_path, "--against", reference, "--seed", "1", "--time", "60",
                           "--json", target)
    assert code == 1, out + err
    data = read_json(target)
    assert (data["verdict"], data["args"], data["expected"], data["got"]) == ("WA", {"piles": [1, 0]}, [0, 1, 1], [])
    code, out, err = judge(*ROXOR, "challenge", wrong_path, "--args", '{"piles": [1, 0]}')
    assert code == 1, out + err
    assert out.startswith("challenge succeeded: WA")
    code, out, err = judge(*ROXOR, "challenge", reference, "--args", '{"piles": [1, 0]}')
    assert code == 0, out + err


def test_stress_leaves_nothing_in_the_project_folder(project, tmp_path_factory):
    """hypothesis keeps its files in the user's cache; before, a .hypothesis/ appeared in the project.
    In a process of its own: hypothesis writes its files once per process."""
    import os
    import subprocess
    import sys

    cache = tmp_path_factory.mktemp("cache")
    done = subprocess.run([sys.executable, str(ROOT / "judge.py"), "--history", str(cache / "history.sqlite"), "stress",
                           "solutions/largest/wrong_answer/caps_at_six.py", "--seed", "5", "--time", "30"],
                          cwd=project, env=dict(os.environ, XDG_CACHE_HOME=str(cache)), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    assert sorted(p.name for p in project.iterdir()) == ["problems", "solutions"]
    assert (cache / "tcjudge" / "hypothesis").is_dir()
