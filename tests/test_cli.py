"""The command line as users and CI meet it: exit codes, messages, tables and the JSON shape."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from . import budget
from .conftest import FIXTURE_PROBLEMS, ROOT, TESTDATA

SOLUTIONS = TESTDATA / "solutions"
PROBLEMS = ("--problems", FIXTURE_PROBLEMS)


def test_grade_accepted_prints_table_and_exits_0(judge):
    code, out, err = judge(*PROBLEMS, "grade", SOLUTIONS / "accepted.py")
    assert code == 0, err
    header = next(line for line in out.splitlines() if line.startswith("test"))
    assert header.split() == ["test", "verdict", "CPU", "ms", "wall", "ms", "memory", "MiB", "message"]
    assert sum(" AC " in line for line in out.splitlines()) == 4
    assert "AC  passed 4/4  slowest" in out


def test_grade_failing_solution_exits_1_with_first_failure(judge):
    code, out, _ = judge(*PROBLEMS, "grade", SOLUTIONS / "wrong_answer.py")
    assert code == 1
    assert "WA  passed 1/4" in out and "first failure: example-0: expected 12, got 6" in out


def test_grade_examples_only(judge):
    code, out, _ = judge(*PROBLEMS, "grade", SOLUTIONS / "accepted.py", "--examples")
    assert code == 0 and "2 tests" in out and "passed 2/2" in out


def test_grade_single_test(judge):
    code, out, _ = judge(*PROBLEMS, "grade", SOLUTIONS / "accepted.py", "--test", "big")
    assert code == 0 and "passed 1/1" in out


def test_grade_refuses_an_empty_selection(judge, tmp_path):
    """Zero tests prove nothing: a usage error (exit 2), never "AC passed 0/0"."""
    code, out, err = judge(*PROBLEMS, "grade", SOLUTIONS / "accepted.py", "--examples", "--test", "big")
    assert code == 2 and "has no examples among 'big': nothing to grade" in err and "AC" not in out
    shutil.copytree(FIXTURE_PROBLEMS / "adder", tmp_path / "adder")
    (tmp_path / "adder" / "tests" / "examples.yaml").unlink()
    code, out, err = judge("--problems", tmp_path, "grade", SOLUTIONS / "accepted.py", "--examples")
    assert code == 2 and "has no examples: nothing to grade" in err and "AC" not in out


def test_json_shape_is_stable(judge, read_json, tmp_path):
    target = tmp_path / "result.json"
    code, _, _ = judge(*PROBLEMS, "grade", SOLUTIONS / "wrong_answer.py", "--problem", "adder", "--json", target)
    assert code == 1
    data = read_json(target)
    assert data["format_version"] == 1
    assert {"problem", "solution", "verdict", "tests", "passed", "total", "slowest", "limits",
            "baseline_mib", "message"} <= set(data)
    assert data["problem"] == "adder" and data["verdict"] == "WA"
    assert data["solution"].endswith("wrong_answer.py")
    assert (data["passed"], data["total"]) == (1, 4)
    for test in data["tests"]:
        assert {"name", "verdict", "cpu_ms", "wall_ms", "memory_mib", "message"} <= set(test)
    assert data["tests"][0]["verdict"] == "WA" and data["tests"][0]["message"] == "expected 12, got 6"
    assert isinstance(data["tests"][1]["cpu_ms"], float)


def test_grade_json_of_a_stored_solution_says_what_its_folder_expects(judge, read_json, tmp_path):
    stored = TESTDATA / "stored"
    for name, verdict in (("accepted/straightforward.py", "AC"), ("wrong_answer/overflows_32_bits.py", "WA")):
        target = tmp_path / "result.json"
        judge(*PROBLEMS, "--solutions", stored, "grade", stored / "adder" / name, "--json", target)
        data = read_json(target)
        assert (data["verdict"], data["expected"], data["matched"], data["mismatch"]) == (verdict, verdict, True, "")
    judge(*PROBLEMS, "--solutions", stored, "grade", SOLUTIONS / "wrong_answer.py", "--problem", "adder", "--json", target)
    assert "expected" not in read_json(target)  # not a stored solution: no promise to keep
    judge(*PROBLEMS, "--solutions", stored, "grade", stored / "adder" / "wrong_answer" / "overflows_32_bits.py",
          "--examples", "--json", target)
    assert "expected" not in read_json(target)  # a verdict on some tests says nothing of the folder's promise
    copied = shutil.copytree(stored, tmp_path / "stored")
    (copied / "adder" / "NOTES.md").write_text("a stray file: check refuses the folder, grade of one file does not\n")
    code, _, err = judge(*PROBLEMS, "--solutions", copied, "grade", copied / "adder" / "accepted" / "straightforward.py",
                         "--json", target)
    assert code == 0 and "expected" not in read_json(target), err
    mismatch = TESTDATA / "stored_mismatch"
    judge(*PROBLEMS, "--solutions", mismatch, "grade", mismatch / "adder" / "accepted" / "off_by_one.py", "--json", target)
    data = read_json(target)
    assert (data["verdict"], data["expected"], data["matched"]) == ("WA", "AC", False) and data["mismatch"] == ""


def test_a_package_submission_is_graded_without_naming_its_problem(judge, read_json, tmp_path):
    target = tmp_path / "result.json"
    code, out, err = judge("--problems", TESTDATA / "kattis", "grade",
                           TESTDATA / "kattis" / "addtwo" / "submissions" / "wrong_answer" / "integers.py", "--json", target)
    assert code == 1 and "on Add Two (addtwo)" in out, out + err
    data = read_json(target)
    assert (data["problem"], data["verdict"], data["expected"], data["matched"]) == ("addtwo", "WA", "WA", True)


def test_a_programs_problem_is_the_solutions_folder_it_is_kept_in(tmp_path):
    """Found without --problem: a program whose classes are its own (Java's Reference), and a path
    through a link to the checkout, where the working folder is the real one."""
    from tcjudge import languages
    from tcjudge.problems.catalog import Catalog
    from tcjudge.runs import stored_expectation

    catalog = Catalog(ROOT / "problems", ROOT / "solutions", languages.EXTENSIONS)
    assert catalog.problem_for(ROOT / "solutions" / "chefgm" / "accepted" / "Reference.java").slug == "chefgm"
    link = tmp_path / "link"
    link.symlink_to(ROOT)
    through = link / "solutions" / "chefgm" / "accepted" / "stray_spaces.py"
    problem = catalog.problem_for(through)
    assert problem.slug == "chefgm"
    expected, _ = stored_expectation(catalog, problem, through, problem.tests, False)
    assert str(expected) == "AC"


def test_compile_error_is_reported_with_line(judge):
    code, out, _ = judge(*PROBLEMS, "grade", SOLUTIONS / "compile_error_syntax.py")
    assert code == 1 and "CE  passed 0/4" in out and "(line 5)" in out


def test_a_program_that_reads_input_sent_to_a_method_problem_is_told_what_it_calls(judge, tmp_path):
    """Breaker 54b F10: a stdin program sent to a method problem was told only "EOFError: EOF when reading a
    line", not that the problem calls a class's method."""
    program = tmp_path / "reads.py"
    program.write_text("n = int(input())\nprint(n)\n")
    code, out, _ = judge(*PROBLEMS, "grade", program, "--problem", "adder")
    assert code == 1 and "EOFError" in out and "this problem gives no input: it calls Adder.add" in out, out


def test_unknown_problem_is_a_usage_error(judge):
    code, out, err = judge(*PROBLEMS, "grade", SOLUTIONS / "accepted.py", "--problem", "nope")
    assert code == 2 and out == ""
    assert err.strip() == "judge: error: unknown problem 'nope' (known: adder)"


def test_missing_file_is_a_usage_error(judge, tmp_path):
    code, _, err = judge(*PROBLEMS, "grade", tmp_path / "absent.py")
    assert code == 2 and "absent.py: no such file" in err and "Traceback" not in err


def test_unreadable_file_is_a_usage_error(judge, tmp_path):
    target = tmp_path / "noread.py"
    target.write_bytes(b"\xff\xfe class Adder")
    target.chmod(0)
    code, _, err = judge(*PROBLEMS, "grade", target, "--problem", "adder")
    # Root can read anything; an ordinary user gets the "cannot read" error. Neither may crash.
    assert code in (1, 2) and "Traceback" not in err


def test_class_not_matching_any_problem(judge, tmp_path):
    target = tmp_path / "other.py"
    target.write_text("class Nothing:\n    pass\n")
    code, _, err = judge(*PROBLEMS, "grade", target)
    assert code == 2 and "no problem has a class named like this file's (Nothing)" in err


def test_malformed_problem_names_file_and_line(judge):
    code, _, err = judge("--problems", TESTDATA / "broken", "grade", SOLUTIONS / "accepted.py",
                         "--problem", "malformed_yaml")
    assert code == 2
    assert "broken/malformed_yaml/tests/examples.yaml:5: malformed YAML" in err


def test_check_passes_when_every_solution_matches(judge):
    code, out, _ = judge(*PROBLEMS, "--solutions", TESTDATA / "stored", "check")
    assert code == 0
    assert "2 of 2 solutions got their expected verdict" in out
    assert "adder/wrong_answer/overflows_32_bits.py" in out


def test_check_fails_on_mismatch(judge, tmp_path):
    target = tmp_path / "check.json"
    code, out, _ = judge(*PROBLEMS, "--solutions", TESTDATA / "stored_mismatch", "check", "--json", target)
    assert code == 1
    assert "MISMATCH" in out and "0 of 1 solution got their expected verdict" in out


def test_check_stops_at_first_failure_unless_all_tests(judge, read_json, tmp_path):
    first, everything = tmp_path / "first.json", tmp_path / "all.json"
    judge(*PROBLEMS, "--solutions", TESTDATA / "stored_mismatch", "check", "-j", "1", "--json", first)
    judge(*PROBLEMS, "--solutions", TESTDATA / "stored_mismatch", "check", "--all-tests", "--json", everything)
    ran_first = [t["verdict"] for t in read_json(first)["solutions"][0]["tests"]]
    assert read_json(first)["format_version"] == 1
    ran_all = [t["verdict"] for t in read_json(everything)["solutions"][0]["tests"]]
    assert ran_first[0] == "WA" and ran_first[1:] == [None, None, None]
    assert ran_all == ["WA"] * 4


def test_report_writes_markdown_and_json(judge, read_json, tmp_path):
    code, out, _ = judge(*PROBLEMS, "--solutions", TESTDATA / "stored", "report", "--out", tmp_path)
    assert code == 0
    data = read_json(tmp_path / "adder.json")
    assert [s["verdict"] for s in data["solutions"]] == ["AC", "WA"]
    assert all(len(s["tests"]) == 4 and all(t["verdict"] for t in s["tests"]) for s in data["solutions"])
    markdown = (tmp_path / "adder.md").read_text()
    assert markdown.startswith("# Verdict report: Adder") and "## Grid" in markdown
    assert "- testdata/stored/adder/wrong_answer/overflows_32_bits.py: big: expected 3000000000000" in markdown


def test_bad_jobs_value_is_a_usage_error(judge):
    try:
        judge(*PROBLEMS, "check", "-j", "0")
    except SystemExit as exit_:
        assert exit_.code == 2
    else:
        raise AssertionError("argparse should reject -j 0")


@pytest.mark.parametrize("words", [["calibrate", "adder", "--factor", value] for value in ("nan", "inf", "-2", "0", "0.5")]
                         + [["stress", "any.py", "--time", value] for value in ("0", "-1", "nan")])
def test_a_number_out_of_range_is_a_usage_error_not_a_traceback(words, capsys):
    from tcjudge.cli import main

    with pytest.raises(SystemExit) as exit_:
        main([PROBLEMS[0], str(PROBLEMS[1]), *words])
    assert exit_.value.code == 2
    assert f"argument {words[2]}: must be a number " in capsys.readouterr().err


def test_a_worker_scratch_folder_that_is_not_there_is_one_line(tmp_path):
    pytest.importorskip("distributed")
    done = budget.run([sys.executable, str(ROOT / "judge.py"), "worker", "tcp://127.0.0.1:1", "--scratch",
                           str(tmp_path / "absent")], capture_output=True, text=True, cpu=60)
    assert (done.returncode, done.stderr) == (
        2, f"judge: error: {tmp_path / 'absent'}: cannot make the scratch folder there: No such file or directory\n")


def test_a_broken_problem_does_not_block_grading_another(judge, tmp_path):
    import shutil

    shutil.copytree(FIXTURE_PROBLEMS / "adder", tmp_path / "adder")
    shutil.copytree(TESTDATA / "broken" / "malformed_yaml", tmp_path / "broken")
    (tmp_path / "broken" / "problem.yaml").write_text("class: Other\n" + "name: [unclosed\n")
    code, out, err = judge("--problems", tmp_path, "grade", SOLUTIONS / "accepted.py")
    assert code == 0 and "passed 4/4" in out, err


def test_missing_layer_gives_one_warning_line_and_grading_goes_on(judge, monkeypatch, tmp_path):
    from tcjudge.engine import isolation
    from tcjudge.engine.sandbox import LayerStatus

    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path / "cache"))  # nothing kept: this run probes
    missing = LayerStatus("landlock.net", False, "needs Landlock ABI 4 (Linux 6.7), kernel has 3")
    monkeypatch.setattr(isolation, "all_layers", lambda: isolation.engine_layers() + [missing])
    code, out, err = judge(*PROBLEMS, "grade", SOLUTIONS / "accepted.py")
    assert code == 0 and "passed 4/4" in out
    warnings = [line for line in err.splitlines() if line.startswith("judge: warning:")]
    assert warnings == ["judge: warning: sandbox layers inactive: landlock.net (needs Landlock ABI 4 (Linux 6.7), "
                        "kernel has 3)"]


def test_the_layers_warning_is_kept_until_what_it_depends_on_changes(monkeypatch, tmp_path):
    from tcjudge.engine import isolation
    from tcjudge.engine.sandbox import LayerStatus

    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path / "cache"))
    missing = LayerStatus("seccomp", False, "no seccomp here")
    monkeypatch.setattr(isolation, "all_layers", lambda: isolation.engine_layers() + [missing])
    first = isolation.missing_layers_warning()
    assert first == "judge: warning: sandbox layers inactive: seccomp (no seccomp here)"
    monkeypatch.setattr(isolation, "all_layers", lambda: pytest.fail("probed although the kept line stands"))
    assert isolation.missing_layers_warning() == first
    monkeypatch.setattr(isolation, "_kept_key", lambda: "another boot")  # a reboot, a new cgroup, new code
    monkeypatch.setattr(isolation, "all_layers", isolation.engine_layers)
    assert isolation.missing_layers_warning() is None
    kept = tmp_path / "cache" / isolation.WARNING_FOLDER / str(os.getuid())
    kept.chmod(0o666)  # a file another user could have written is never believed
    monkeypatch.setattr(isolation, "all_layers", lambda: isolation.engine_layers() + [missing])
    assert isolation.missing_layers_warning() == first


def test_a_grading_run_with_the_warning_kept_imports_no_sandbox_module(tmp_path):
    program = ("import sys; from tcjudge.engine.isolation import missing_layers_warning; missing_layers_warning(); "
               "print(sorted(m for m in sys.modules if 'sandbox' in m or m == 'ctypes'))")
    env = dict(os.environ, JUDGE_CACHE=str(tmp_path / "cache"))
    runs = [budget.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT, env=env,
                           cpu=60) for _ in range(2)]
    assert "tcjudge.engine.sandbox" in runs[0].stdout, runs[0].stdout + runs[0].stderr  # the first one probes
    assert runs[1].stdout.strip() == "[]", runs[1].stdout + runs[1].stderr


def test_doctor_lists_every_layer(judge):
    code, out, _ = judge("doctor")
    for name in ("fresh process", "rlimits", "cpu watch", "no_new_privs", "landlock.fs", "seccomp"):
        assert any(line.startswith(name) for line in out.splitlines()), name
    assert code in (0, 1)  # 1 when this machine lacks a layer


def test_hide_expected_shows_verdicts_only(judge, read_json, tmp_path):
    leaky = tmp_path / "leaky.py"  # echoes its input every way a message could carry it
    leaky.write_text("class Adder:\n    def add(self, values, factor):\n"
                     "        print('input', values, factor)\n"
                     "        if factor < 0:\n            raise ValueError(f'input {values} {factor}')\n"
                     "        return -12345\n")
    out_json = tmp_path / "out.json"
    code, out, _ = judge(*PROBLEMS, "grade", leaky, "--json", out_json)
    shown = read_json(out_json)["tests"]
    assert code == 1 and any("expected" in t["message"] for t in shown)  # the default shows the difference
    code, out, err = judge(*PROBLEMS, "grade", leaky, "--json", out_json, "--hide-expected")
    hidden = read_json(out_json)
    assert code == 1 and [t["verdict"] for t in hidden["tests"]] == [t["verdict"] for t in shown]
    for test, before in zip(hidden["tests"], shown):
        assert test["message"] in ("", "wrong answer", "runtime error"), test
        assert not test.get("input") and not test.get("output") and not test.get("returned"), test
    assert "RE" in [t["verdict"] for t in shown] and "3000000000000" in str(shown)  # the big test's answer
    for secret in ("3000000000000", "1000000000", "[-5, 2]"):  # an expected value, inputs
        assert secret not in out + err + out_json.read_text(), secret
    code, out, _ = judge(*PROBLEMS, "grade", leaky, "--hide-expected", "--show-output")
    assert "printed is not kept" in out and "printed anything" not in out and "input (" not in out


def test_reports_and_history_default_to_the_project_in_the_current_folder(capsys, monkeypatch, tmp_path):
    """In a project (./problems), reports/ and the history go there; with --problems elsewhere, the
    solutions, reports and history sit beside it; never in the judge's own folder."""
    from tcjudge import project
    from tcjudge.cli import _parser, main

    setter = TESTDATA / "setter"
    shutil.copytree(setter / "problems", tmp_path / "problems")
    shutil.copytree(setter / "solutions", tmp_path / "solutions")
    monkeypatch.chdir(tmp_path)
    assert main(["grade", "solutions/largest/accepted/reference.py"]) == 0
    assert "AC  passed 4/4" in capsys.readouterr().out
    assert (tmp_path / "reports" / "history.sqlite").is_file()

    def folders(*argv):
        options = _parser().parse_args(list(argv))
        project.complete(options)
        return [path.resolve() for path in (options.solutions, options.out, options.history)]

    assert folders("report") == [tmp_path / "solutions", tmp_path / "reports", tmp_path / "reports" / "history.sqlite"]
    monkeypatch.chdir(tmp_path / "solutions")  # no problems/ here
    elsewhere = tmp_path / "elsewhere"
    assert folders("--problems", str(elsewhere / "problems"), "report") == [
        elsewhere / "solutions", elsewhere / "reports", elsewhere / "reports" / "history.sqlite"]
    monkeypatch.setattr(project, "CHECKOUT", tmp_path / "site-packages")  # installed: no checkout to fall back on
    assert project.default_problems() == Path("problems")


@pytest.mark.parametrize("stop, status", [("SIGINT", 130), ("SIGTERM", 143)])
def test_ctrl_c_never_shows_a_test_in_flight_as_ie_or_mismatch(tmp_path, stop, status):
    """Before: 'MISMATCH ...: IE (expected AC)' for the solutions in flight, then 'judge: interrupted'.
    SIGTERM (timeout, CI, systemd) stops a run as Ctrl-C does: before, it ended the judge at once,
    exit 143 and no line, the run missing from the history (breaker 45)."""
    import signal
    import sqlite3
    import subprocess
    import sys
    import time

    from .conftest import stored_fixture

    problems, solutions = stored_fixture(tmp_path, {"accepted": ["time_limit_loop.py"] * 3}, time_limit=5)
    process = subprocess.Popen([sys.executable, str(ROOT / "judge.py"), "--problems", str(problems), "--solutions",
                                str(solutions), "--history", str(tmp_path / "history.sqlite"), "check", "-j", "2"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert process.stdout.readline().startswith("Checking 3 stored solutions")
        time.sleep(1.5)  # both workers are inside a 5 s test by now
        process.send_signal(getattr(signal, stop))
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == status, err
    assert err.strip().endswith("judge: interrupted"), err
    assert "MISMATCH" not in out and "IE" not in out and "Traceback" not in err, out + err
    with sqlite3.connect(tmp_path / "history.sqlite") as db:
        assert [row[0] for row in db.execute("SELECT status FROM runs")] == ["interrupted"]


def test_report_whose_reader_goes_away_still_writes_its_pages_then_exits_141(tmp_path):
    """Before: `report | head -3` exited 2, 'cannot write the report: Broken pipe', pages unwritten."""
    import subprocess
    import sys

    out = tmp_path / "pages"
    process = subprocess.Popen([sys.executable, str(ROOT / "judge.py"), *map(str, PROBLEMS), "--solutions",
                                str(TESTDATA / "stored"), "--history", str(tmp_path / "history.sqlite"), "report",
                                "--out", str(out), "--json", str(tmp_path / "report.json")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    process.stdout.readline()
    process.stdout.close()  # the reader goes away after one line, as `| head -1`
    err = process.stderr.read().decode()
    assert process.wait(timeout=300) == 141, err
    assert "Traceback" not in err and "Broken pipe" not in err, err
    assert {"adder.html", "adder.json", "adder.md", "index.html"} <= {p.name for p in out.iterdir()}
    assert (tmp_path / "report.json").is_file()


def test_a_check_whose_reader_goes_away_is_recorded_as_interrupted(tmp_path):
    """Before: `check | head -1` (exit 141) left no run in the history at all."""
    import sqlite3
    import subprocess
    import sys

    from .conftest import stored_fixture

    # two TLE solutions after the first line: the run cannot have ended when its reader goes
    problems, solutions = stored_fixture(tmp_path, {"accepted": ["accepted.py"],
                                                    "time_limit_exceeded": ["time_limit_loop.py"] * 2})
    history = tmp_path / "history.sqlite"
    process = subprocess.Popen([sys.executable, str(ROOT / "judge.py"), "--problems", str(problems), "--solutions",
                                str(solutions), "--history", str(history), "check", "-j", "1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    process.stdout.readline()
    process.stdout.close()  # the reader goes away after one line, as `| head -1`
    err = process.stderr.read().decode()
    assert process.wait(timeout=300) == 141 and "Traceback" not in err, err
    with sqlite3.connect(history) as db:
        assert db.execute("SELECT command, status FROM runs").fetchall() == [("check", "interrupted")]


def test_problems_naming_one_problem_and_an_empty_validate_are_input_errors(judge, tmp_path, monkeypatch):
    """Before: --problems pointed at one package gave 'unknown problem' with no problem known, and
    validate on it (or on an empty project) '0 of 0 problems valid' with exit 0."""
    package = TESTDATA / "kattis" / "addtwo"
    for words in (["validate"], ["statement", "addtwo"], ["check"]):
        code, _, err = judge("--problems", package, *words)
        assert code == 2 and err.rstrip().endswith("--problems testdata/kattis") and "one problem's folder" in err, err
    (tmp_path / "problems").mkdir()
    code, out, err = judge("--problems", tmp_path / "problems", "validate")
    assert code == 2 and "no problems here to validate" in err and "0 of 0" not in out, out + err
    monkeypatch.chdir(package)  # --problems . from inside the package: its parent is named, not "."
    code, _, err = judge("--problems", ".", "validate")
    assert code == 2 and err.rstrip().endswith(f"--problems {(TESTDATA / 'kattis').resolve()}"), err


def test_history_of_an_unknown_problem_or_file_is_an_input_error(judge):
    """Before: exit 0 with a sentence, while check and report exit 2 for an unknown problem."""
    code, out, err = judge("history", "nosuch")
    assert code == 2 and "no recorded run of a problem 'nosuch'" in err, out + err
    code, out, err = judge("history", "solutions/nosuch.py")
    assert code == 2 and "no recorded run of solutions/nosuch.py" in err, out + err


def test_a_misspelt_class_or_slug_gets_a_did_you_mean(judge, tmp_path):
    misspelt = tmp_path / "adr.py"
    misspelt.write_text("class Addr:\n    def add(self, values, factor):\n        return 0\n")
    code, _, err = judge(*PROBLEMS, "grade", misspelt)
    assert code == 2 and "(Addr): did you mean Adder (problem adder)? Else use --problem" in err, err
    code, _, err = judge(*PROBLEMS, "grade", misspelt, "--problem", "addr")
    assert code == 2 and "unknown problem 'addr' (did you mean 'adder'?)" in err, err


def test_the_command_lines_exit_runs_atexit_and_keeps_every_line_and_the_status(tmp_path):
    """cli.run leaves with os._exit, skipping the interpreter's teardown: what atexit holds still
    runs, output buffered for a pipe still arrives, and the command's exit status is kept."""
    import subprocess
    import sys

    program = ("import atexit, sys; from tcjudge import cli; "
               "atexit.register(lambda: print('atexit ran')); "
               "sys.argv = ['judge', '--problems', sys.argv[1], '--history', sys.argv[2], 'grade', sys.argv[3]]; "
               "cli.run()")
    done = budget.run([sys.executable, "-c", program, str(FIXTURE_PROBLEMS), str(tmp_path / "history.sqlite"),
                           str(TESTDATA / "solutions" / "wrong_answer.py")],
                          capture_output=True, text=True, cwd=ROOT, cpu=300)
    assert done.returncode == 1, done.stderr  # WA: the grade's own status
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Grading ") and any(line.startswith("judged in ") for line in lines), done.stdout
    assert lines[-1] == "atexit ran", done.stdout


def test_a_python_without_the_judges_packages_gets_one_line(tmp_path):
    """issue 33: `python3 judge.py` with a Python outside the venv ended in a ModuleNotFoundError traceback."""
    done = budget.run([sys.executable, "-S", str(ROOT / "judge.py"), "check"], cwd=tmp_path, capture_output=True,
                          text=True, cpu=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "which the judge needs" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
