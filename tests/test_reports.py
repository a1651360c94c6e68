"""Reports people and CI read: the run history (reuse, invalidation, changes), JUnit XML, the HTML
pages (parsed, and rendered by a real headless browser), progress lines, and failure details."""

from __future__ import annotations

import io
import json
import re
import shutil
import sqlite3
import subprocess
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tcjudge.cli import main
from tcjudge.engine import results
from tcjudge.engine.pool import SolutionRun
from tcjudge.engine.results import GradeResult
from tcjudge.problems.catalog import Catalog
from tcjudge import languages
from tcjudge.reports import history
from tcjudge.reports.history import History, change_between
from tcjudge.runs import grade_and_record
from tcjudge.reports.junit import write_junit
from tcjudge.reports.pages import problem_page
from tcjudge.reports.tables import write_report
from tcjudge.reports.progress import Progress
from tcjudge.verdicts import Verdict

from .conftest import FIXTURE_PROBLEMS, TESTDATA

WRONG = "class Adder:\n    def add(self, values, factor):\n        return sum(values)\n"


@pytest.fixture
def project(tmp_path):
    """A copy of the fixture problem and its stored solutions, free to edit."""
    shutil.copytree(FIXTURE_PROBLEMS / "adder", tmp_path / "problems" / "adder")
    shutil.copytree(TESTDATA / "stored", tmp_path / "solutions")
    return tmp_path


@pytest.fixture
def run(project, capsys):
    """`judge.py --problems P --solutions S --history H ARGS...` -> (exit code, stdout, stderr)."""

    def judge(*args) -> tuple[int, str, str]:
        code = main(["--problems", str(project / "problems"), "--solutions", str(project / "solutions"),
                     "--history", str(project / "history.sqlite"), *map(str, args)])
        out, err = capsys.readouterr()
        return code, out, err

    return judge


def reused(project, *args, run) -> int:
    target = project / "out.json"
    run(*args, "--json", target)
    return json.loads(target.read_text())["reused"]


# -- history: reuse and invalidation ---------------------------------------------------------------

def test_second_check_reuses_every_result_and_says_so(run, project):
    assert reused(project, "check", run=run) == 0
    code, out, _ = run("check")
    assert code == 0
    assert "2 of 2 results reused from the history" in out
    assert out.count("(reused)") == 2
    assert reused(project, "check", "--fresh", run=run) == 0


def test_changing_a_solution_reruns_only_that_solution(run, project):
    run("check")
    accepted = project / "solutions" / "adder" / "accepted" / "straightforward.py"
    accepted.write_text(accepted.read_text() + "\n# edited\n")
    assert reused(project, "check", run=run) == 1


def test_changing_a_test_or_a_limit_reruns_everything(run, project):
    run("check")
    tests = project / "problems" / "adder" / "tests" / "more.yaml"
    tests.write_text(tests.read_text() + "\n")
    assert reused(project, "check", run=run) == 0
    assert reused(project, "check", run=run) == 2
    spec = project / "problems" / "adder" / "problem.yaml"
    spec.write_text(spec.read_text().replace("time_limit: 0.5", "time_limit: 0.6"))
    assert reused(project, "check", run=run) == 0


def test_a_different_source_limit_reruns_everything(run, project):
    run("check")
    assert reused(project, "check", "--source-limit", 32, run=run) == 0  # it decides CE
    assert reused(project, "check", "--source-limit", 32, run=run) == 2


def test_a_different_compiler_version_reruns_everything(run, project, monkeypatch):
    run("check")
    statuses = languages.statuses()
    upgraded = [replace(s, toolchain=replace(s.toolchain, version=s.toolchain.version + " (upgraded)"))
                if s.toolchain else s for s in statuses]
    monkeypatch.setattr(languages, "statuses", lambda: upgraded)
    history.machine_id.cache_clear()
    try:
        assert reused(project, "check", run=run) == 0
    finally:
        history.machine_id.cache_clear()


def test_the_engine_key_covers_every_harness_file_but_reports_and_option_parsing(tmp_path, monkeypatch):
    harness = tmp_path / "harness"
    shutil.copytree(history.HARNESS, harness, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(history, "HARNESS", harness)
    monkeypatch.setattr(history, "NOT_ENGINE", (harness / "reports", harness / "cli.py", harness / "commands"))

    def key_after(edit: Path) -> str:
        edit.write_text(edit.read_text() + "\n")
        history.engine_version.cache_clear()
        return history.engine_version()

    try:
        history.engine_version.cache_clear()
        before = history.engine_version()
        assert key_after(harness / "reports" / "templates" / "base.html") == before
        assert key_after(harness / "cli.py") == before
        assert key_after(harness / "commands" / "check.py") == before
        after_header = key_after(harness / "languages" / "runtime" / "tcjudge.hpp")
        assert after_header != before
        assert key_after(harness / "languages" / "runtime" / "tcjudge" / "Main.java") != after_header
    finally:
        history.engine_version.cache_clear()


def test_a_stopped_check_never_serves_a_report_but_a_report_serves_check(run, project):
    run("check")  # the wrong answer stops at its first failure: not a full run
    assert reused(project, "report", "--out", project / "out", run=run) == 1  # only the accepted one
    assert reused(project, "report", "--out", project / "out", run=run) == 2
    fresh, from_report = project / "fresh.json", project / "reused.json"
    run("check", "--json", from_report)
    run("check", "--fresh", "--json", fresh)
    def first_failures(path):  # tests after it may or may not have run in a fresh check, by timing
        return [(s["verdict"], next((t["name"] for t in s["tests"] if t["verdict"] not in ("AC", None)), None))
                for s in json.loads(path.read_text())["solutions"]]

    assert first_failures(from_report) == first_failures(fresh) == [("AC", None), ("WA", "big")]
    trimmed = json.loads(from_report.read_text())["solutions"][1]["tests"]
    assert [t["verdict"] for t in trimmed] == ["AC", "AC", "WA", None]


def _stored_run(project) -> SolutionRun:
    catalog = Catalog(project / "problems", project / "solutions", languages.EXTENSIONS)
    problem = catalog.problem("adder")
    stored = catalog.stored_solutions("adder")[0]
    return SolutionRun(problem, stored.path, problem.tests, True, stored.expected)


def _result(run: SolutionRun, verdicts: list[Verdict], cpu_ms: float = 1.0) -> GradeResult:
    tests = [results.TestResult(t.name, v, cpu_ms) for t, v in zip(run.tests, verdicts)]
    return GradeResult(run.problem, run.solution, tests, expected=run.expected)


def test_internal_errors_and_interrupted_runs_are_never_reused(project):
    history = History(project / "history.sqlite")
    solution = _stored_run(project)
    with_ie = _result(solution, [Verdict.AC, Verdict.IE, Verdict.AC, Verdict.AC])
    history.record("check", [], time.time(), [solution], [with_ie], {})
    assert history.reusable(solution) is None

    def interrupted(runs):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        grade_and_record(history, "check", [], [solution], False, interrupted)
    assert history.runs(1)[0][4] == "interrupted"
    assert history.reusable(solution) is None
    history.record("check", [], time.time(), [solution], [_result(solution, [Verdict.AC] * 4)], {})
    assert history.reusable(solution) is not None


def test_every_test_is_recorded_with_its_figures(run, project):
    run("check", "--all-tests")
    with sqlite3.connect(project / "history.sqlite") as db:
        rows = db.execute("SELECT t.name, t.verdict, t.cpu_ms, t.message, r.solution_hash, r.problem_hash, "
                          "runs.machine, runs.engine FROM tests t JOIN results r ON r.id = t.result_id "
                          "JOIN runs ON runs.id = r.run_id").fetchall()
    assert len(rows) == 8
    assert {row[1] for row in rows} == {"AC", "WA"}
    assert any(row[3].startswith("expected 3000000000000") for row in rows)
    assert all(row[2] > 0 and row[4] and row[5] and row[6] and row[7] for row in rows)


# -- changes since the last run --------------------------------------------------------------------

def test_a_verdict_change_is_reported_in_text_and_json(run, project):
    run("check")
    accepted = project / "solutions" / "adder" / "accepted" / "straightforward.py"
    accepted.write_text(WRONG)
    target = project / "check.json"
    code, out, _ = run("check", "--json", target)
    assert code == 1
    assert "changes since the last run:\n  " in out and "straightforward.py: AC -> WA" in out
    [change] = json.loads(target.read_text())["changes"]
    assert change["solution"].endswith("straightforward.py") and (change["before"], change["after"]) == ("AC", "WA")
    code, out, _ = run("check")
    assert "changes since the last run: none" in out


def test_a_slowdown_counts_only_beyond_noise(project):
    solution = _stored_run(project)
    before = _result(solution, [Verdict.AC] * 4, cpu_ms=100)
    assert change_between(before, _result(solution, [Verdict.AC] * 4, cpu_ms=124)) is None  # < 25%
    assert change_between(_result(solution, [Verdict.AC] * 4, cpu_ms=10),
                          _result(solution, [Verdict.AC] * 4, cpu_ms=25)) is None  # < 20 ms
    slower = change_between(before, _result(solution, [Verdict.AC] * 4, cpu_ms=130))
    assert slower and slower.what == "slowest CPU 100 -> 130 ms"


# -- the history command ---------------------------------------------------------------------------

def test_history_lists_runs_and_a_solutions_verdicts(run, project):
    run("check")
    run("report", "--out", project / "out")
    code, out, _ = run("history")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:5] == ["run", "when", "command", "took", "status"]
    assert any(" report " in line and " complete " in line for line in lines)
    code, out, _ = run("history", "adder")
    assert "run 1" in out and "run 2" in out and "overflows_32_bits.py" in out
    code, out, _ = run("history", project / "solutions" / "adder" / "wrong_answer" / "overflows_32_bits.py")
    rows = [line.split() for line in out.splitlines() if re.match(r"\d+ ", line)]
    assert [row[4] for row in rows] == ["WA", "WA"] and "reused" not in out


# -- JUnit -----------------------------------------------------------------------------------------

def test_grade_junit_has_a_failure_with_its_message(run, project):
    target = project / "grade.xml"
    run("grade", TESTDATA / "solutions" / "wrong_answer.py", "--junit", target)
    [suite] = ET.parse(target).getroot().findall("testsuite")
    assert suite.get("name").endswith("wrong_answer.py")
    assert int(suite.get("tests")) == 4 and int(suite.get("failures")) == 3
    failure = suite.find("testcase[@name='example-0']/failure")
    assert failure.get("type") == "WA" and failure.get("message") == "WA: expected 12, got 6"
    assert "input: [1, 2, 3], 2" in failure.text


def test_check_junit_is_red_exactly_on_a_mismatch(run, project):
    target = project / "check.xml"
    run("check", "--junit", target)
    suites = ET.parse(target).getroot().findall("testsuite")
    assert len(suites) == 2 and all(suite.get("failures") == "0" for suite in suites)
    (project / "solutions" / "adder" / "accepted" / "straightforward.py").write_text(WRONG)
    run("check", "--junit", target)
    failed = [s for s in ET.parse(target).getroot().findall("testsuite") if s.get("failures") != "0"]
    assert len(failed) == 1
    assert failed[0].find("testcase[@name='expected verdict']/failure").get("message") == "expected AC, got WA"


# -- HTML ------------------------------------------------------------------------------------------

class GridParser(HTMLParser):
    """Rows of table#grid: for each solution row, the verdict class of each cell."""

    def __init__(self):
        super().__init__()
        self.rows, self.headers, self.in_grid, self.style = [], 0, False, ""
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.in_grid = attrs.get("id") == "grid"
        elif tag == "style":
            self._in_style = True
        elif self.in_grid and tag == "tr" and attrs.get("class") == "solution":
            self.rows.append([])
        elif self.in_grid and tag == "th" and attrs.get("class") == "test":
            self.headers += 1
        elif self.in_grid and tag == "td" and "cell" in attrs.get("class", "").split():
            self.rows[-1].append(next(c for c in attrs["class"].split() if c.startswith("v-"))[2:])

    def handle_endtag(self, tag):
        if tag == "table":
            self.in_grid = False
        elif tag == "style":
            self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            self.style += data


def test_report_page_has_a_row_per_solution_a_column_per_test_and_verdict_colours(run, project):
    out = project / "out"
    run("report", "--out", out)
    data = json.loads((out / "adder.json").read_text())
    assert data["format_version"] == 1
    parser = GridParser()
    parser.feed((out / "adder.html").read_text())
    assert len(parser.rows) == len(data["solutions"]) == 2
    assert parser.headers == 4
    assert parser.rows == [[t["verdict"] for t in s["tests"]] for s in data["solutions"]]
    assert parser.rows[1] == ["AC", "AC", "WA", "AC"]
    colours = dict(re.findall(r"\.v-(\w+) \{ background: (#[0-9a-f]{6})", parser.style))
    assert colours["AC"] != colours["WA"] and len(set(colours.values())) == len(colours) >= 8
    index = (out / "index.html").read_text()
    assert 'href="adder.html"' in index and "2/2" in index
    markdown = (out / "adder.md").read_text()
    assert "overflows_32_bits.py  ..W." in markdown
    assert "http" not in (out / "adder.html").read_text().replace("http-equiv", "")  # no network resource


def test_solution_text_is_escaped_in_the_page(project):
    solution = _stored_run(project)
    hostile = '</script><script>alert(1)</script><img src=x onerror="alert(2)">'
    result = _result(solution, [Verdict.WA, Verdict.AC, Verdict.AC, Verdict.AC])
    result.tests[0].message = result.tests[0].returned = result.tests[0].output = hostile
    page = problem_page(solution.problem, [result], [], "now", "here")
    assert "<script>alert" not in page and "<img" not in page
    blob = re.search(r'<script type="application/json" id="details">(.*?)</script>', page, re.S).group(1)
    assert json.loads(blob)["solutions"][0]["cells"][0][5] == hostile


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(_chromium() is None, reason="chromium is not installed (`apt-get install chromium`; CI does)")
def test_page_renders_in_a_headless_browser(run, project):
    out = project / "out"
    run("report", "--out", out)
    with tempfile.TemporaryDirectory() as profile:
        dom = subprocess.run(
            [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
             "--dump-dom", (out / "adder.html").as_uri() + "#cell-1-2"],
            capture_output=True, text=True, timeout=120).stdout
    parser = GridParser()
    parser.feed(dom)
    assert parser.rows == [["AC"] * 4, ["AC", "AC", "WA", "AC"]]
    # The script ran: the cell named in the address is open, its details filled in from the page's data.
    detail = re.search(r'<div id="detail">(.*?)</div>', dom, re.S)
    assert detail, "the details panel is still hidden: the page's script did not run"
    assert "overflows_32_bits.py on test big: WA" in detail.group(1)
    assert "<dt>returned</dt><dd>2112827392</dd>" in detail.group(1)


# -- progress and failure details ------------------------------------------------------------------

def test_plain_progress_line_comes_on_its_own_off_a_terminal():
    stream = io.StringIO()
    with Progress(10, 2, live=False, every=0.01, stream=stream) as progress:
        progress.test_done("solutions/x.py")
        deadline = time.monotonic() + 10
        while "\n" not in stream.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
    line = stream.getvalue().splitlines()[0]
    assert line.startswith("judge: 1/10 tests, 0/2 solutions, grading solutions/x.py, ") and "left" in line


def test_wa_shows_input_and_show_output_shows_what_it_printed_made_safe(run, project):
    noisy = project / "noisy.py"
    noisy.write_text("class Adder:\n    def add(self, values, factor):\n"
                     "        print('debug \\x1b[2J', values)\n        return 0\n")
    target = project / "grade.json"
    code, out, _ = run("grade", noisy, "--show-output", "--first-failure", "--json", target)
    assert code == 1
    assert "first failure: example-0: expected 12, got 0\n  input: [1, 2, 3], 2" in out
    assert "--- output of example-0 (WA" in out and "debug \\x1b[2J (1, 2, 3)" in out
    assert "\x1b" not in out
    failing = json.loads(target.read_text())["tests"][0]
    assert failing["output"].startswith("debug ") and failing["input"] == "[1, 2, 3], 2" and failing["returned"] == "0"


def test_a_stdin_failure_shows_its_input_and_output_lines_and_the_page_its_answer(run, project):
    program = project / "minus.py"
    program.write_text("import sys\nw = sys.stdin.read().split()\n"
                       "print(*(int(a) - int(b) for a, b in zip(w[1::2], w[2::2])), sep='\\n')\n")
    target = project / "grade.json"
    main(["--history", str(project / "h.sqlite"), "--problems", str(TESTDATA / "stdin" / "problems"),
          "grade", str(program), "--problem", "add", "--first-failure", "-j", "1", "--json", str(target)])
    failing = json.loads(target.read_text())["tests"][0]
    assert failing["verdict"] == "WA"
    assert failing["input"] == "2\n1 2\n3 4\n" and failing["returned"] == "-1\n-1\n"
    problem = Catalog(TESTDATA / "stdin" / "problems", project, languages.EXTENSIONS).problem("add")
    solution = SolutionRun(problem, program, problem.tests, True)
    result = _result(solution, [Verdict.WA, Verdict.AC])
    details = re.search(r'id="details">(.*?)</script>', problem_page(problem, [result], [], "now", "here"), re.S)
    data = json.loads(details.group(1))
    assert data["input_label"] == "input" and data["tests"][0] == ["example-0", "2\n1 2\n3 4\n", "3\n7\n"]


def test_an_unreadable_history_is_one_line_and_exit_2(run, project):
    (project / "history.sqlite").write_text("not a database, just text " * 100)
    code, out, err = run("check")
    assert code == 2 and "Traceback" not in err
    assert err.startswith("judge: error: ") and "history.sqlite: cannot open the run history" in err


def test_live_progress_prints_finished_solutions_above_the_display(capsys):
    with Progress(4, 2, live=True) as progress:
        progress.test_done("solutions/x.py")
        progress.solution_done("  ok       solutions/x.py: AC (expected AC)")
    assert "ok       solutions/x.py: AC (expected AC)" in capsys.readouterr().out


def test_a_hide_expected_run_is_recorded_but_never_reused(run, project):
    run("check", "--hide-expected", "--all-tests")
    assert reused(project, "check", "--all-tests", run=run) == 0  # the contest run kept no messages
    assert reused(project, "check", "--all-tests", run=run) == 2


def test_a_hide_expected_report_writes_no_input_or_expected_value(run, project):
    out = project / "contest"
    run("report", "--hide-expected", "--out", out)
    page = (out / "adder.html").read_text()
    blob = re.search(r'<script type="application/json" id="details">(.*?)</script>', page, re.S).group(1)
    details = json.loads(blob)
    assert details["tests"] and all(test[1:] == ["", ""] for test in details["tests"])
    report = json.loads((out / "adder.json").read_text())
    assert all(not t["input"] and not t["output"] and not t["returned"]
               for s in report["solutions"] for t in s["tests"])
    assert "expected 12" not in (out / "adder.md").read_text()
    run("report", "--out", out)  # the setter's own report does show them
    blob = re.search(r'id="details">(.*?)</script>', (out / "adder.html").read_text(), re.S).group(1)
    assert json.loads(blob)["tests"][0][1:] == ["[1, 2, 3], 2", "12"]


def test_report_out_on_a_file_is_one_line_and_exit_2_before_any_grading(run, project):
    target = project / "a-file"
    target.write_text("")
    code, out, err = run("report", "--out", target)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err and str(target) in err
    assert "graded" not in out and not (project / "history.sqlite").exists()  # nothing was run


def test_hostile_file_names_stay_inside_their_markdown_cells(project):
    stored = _stored_run(project)
    hostile = stored.solution.with_name("x|y`<b>.py")
    stored.solution.rename(hostile)
    result = _result(stored, [Verdict.WA, Verdict.AC, Verdict.AC, Verdict.AC])
    result.solution = hostile
    markdown = write_report(project / "out", "adder", [result], [])[0].read_text()
    assert "<b>" not in markdown.split("## Grid")[0]  # (the grid is a code block: its text is shown as is)
    [row] = [line for line in markdown.splitlines() if line.startswith("|") and "y" in line and "x" in line]
    assert len(re.findall(r"(?<!\\)\|", row)) == 6  # five cells, none split by the name's pipe
    [listed] = [line for line in markdown.splitlines() if line.startswith("- ")]
    assert "<b>" not in listed and "\\|" in listed


def test_junit_is_valid_xml_whatever_the_file_name_and_message(project):
    stored = _stored_run(project)
    result = _result(stored, [Verdict.WA, Verdict.IE, Verdict.AC, Verdict.AC])
    result.solution = stored.solution.with_name("evil\x1b[2J\udcff.py")
    for test in result.tests[:2]:
        object.__setattr__(test, "message", "bad \x1b[31m \ud800 end")
    target = project / "evil.xml"
    write_junit(target, [result], stored=True)
    root = ET.parse(target).getroot()
    assert "\x1b" not in target.read_text(encoding="utf-8")
    classnames = {case.get("classname") for case in root.iter("testcase")}
    assert classnames == {"adder.evil\\x1b[2J\ufffd"}
    failure = root.find(".//testcase[@name='%s']/failure" % result.tests[0].name)
    assert "\\x1b[31m" in failure.get("message")
