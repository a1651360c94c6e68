"""Reports people and CI read: the run history (reuse, invalidation, changes), JUnit XML, the HTML
pages (parsed, and rendered by a real headless browser), progress lines, and failure details."""

from __future__ import annotations

import io
import itertools
import json
import math
import random
import re
import shutil
import sqlite3
import sys
import threading
import time
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tcjudge.cli import main
from tcjudge.engine import results
from tcjudge.engine.pool import SolutionRun
from tcjudge.engine.results import GradeResult
from tcjudge.languages import EXTENSIONS
from tcjudge.problems.catalog import Catalog
from tcjudge import languages
from tcjudge.reports import fingerprints, history
from tcjudge.reports.history import History, change_between
from tcjudge.runs import grade_and_record
from tcjudge.reports.junit import write_junit
from tcjudge.reports.grid import NAME_SHOWN, PALETTE, SLOT, short_name, solution_strip
from tcjudge.reports.pages import LABEL_GAP, label_span, problem_page, spread_axis
from tcjudge.reports.tables import write_report
from tcjudge.reports.eta import TIMED_OUT_SHARE, Estimate, Planned, guessed_costs
from tcjudge.reports.progress import Phases, Progress
from tcjudge.record import replace
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


def test_a_result_reused_from_an_identical_file_is_not_a_first_run(run, project):
    """issue 33: check said '(reused)' of a solution, then that it 'had no earlier run'."""
    accepted = project / "solutions" / "adder" / "accepted" / "straightforward.py"
    copy = project / "mine.py"
    copy.write_bytes(accepted.read_bytes())
    code, out, _ = run("grade", copy)
    assert code == 0, out
    code, out, _ = run("check")
    assert out.count("(reused)") == 1, out
    assert "changes since the last run: none (1 solution had no earlier run)" in out, out


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



def test_a_history_of_an_older_judge_gains_the_new_columns_and_its_results_are_not_reused(run, project):
    run("check")
    with sqlite3.connect(project / "history.sqlite") as db:  # as a judge before results had a machine
        db.execute("ALTER TABLE results DROP COLUMN machine")
    assert reused(project, "check", run=run) == 0  # the column is back, NULL in the old rows
    assert reused(project, "check", run=run) == 2

def test_a_different_source_limit_reruns_everything(run, project):
    run("check")
    assert reused(project, "check", "--source-limit", 32, run=run) == 0  # it decides CE
    assert reused(project, "check", "--source-limit", 32, run=run) == 2


def test_a_new_version_of_a_solutions_own_compiler_reruns_it_and_of_another_reruns_nothing(run, project,
                                                                                            monkeypatch):
    run("check")  # two Python solutions
    for language in (languages.CPP, languages.JAVA):  # a new g++ or javac changes no Python verdict
        toolchain = language.toolchain()
        if toolchain is not None:
            monkeypatch.setattr(type(language), "toolchain",
                                lambda self, t=toolchain: replace(t, version=t.version + " (upgraded)"))
    assert reused(project, "check", run=run) == 2
    python = languages.PYTHON.toolchain()
    monkeypatch.setattr(type(languages.PYTHON), "toolchain", lambda self: replace(python, version=python.version + "+"))
    assert reused(project, "check", run=run) == 0
    assert reused(project, "check", run=run) == 2


def test_the_engine_key_covers_every_harness_file_but_reports_option_parsing_serve_and_setter(tmp_path, monkeypatch):
    harness = tmp_path / "harness"
    shutil.copytree(fingerprints.HARNESS, harness, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(fingerprints, "HARNESS", harness)
    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path / "cache"))  # (its kept hash is this copy's alone)
    monkeypatch.setattr(fingerprints, "NOT_ENGINE", tuple(harness / part for part in fingerprints.NOT_ENGINE_PARTS))

    def key_after(edit: Path) -> str:
        edit.write_text(edit.read_text() + "\n")
        fingerprints.engine_version.cache_clear()
        return fingerprints.engine_version()

    try:
        fingerprints.engine_version.cache_clear()
        before = fingerprints.engine_version()
        assert key_after(harness / "reports" / "templates" / "base.html") == before
        assert key_after(harness / "cli.py") == before
        assert key_after(harness / "commands" / "check.py") == before
        assert key_after(harness / "serve" / "pages.py") == before  # (issue 47: a restart timed every package)
        assert key_after(harness / "setter" / "validate.py") == before
        after_header = key_after(harness / "languages" / "runtime" / "tcjudge.hpp")
        assert after_header != before
        assert key_after(harness / "languages" / "runtime" / "tcjudge" / "Main.java") != after_header
    finally:
        fingerprints.engine_version.cache_clear()


def test_the_engine_key_is_kept_while_the_files_stamps_stand(tmp_path, monkeypatch):
    harness = tmp_path / "harness"
    shutil.copytree(fingerprints.HARNESS, harness, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(fingerprints, "HARNESS", harness)
    monkeypatch.setattr(fingerprints, "NOT_ENGINE", tuple(harness / part for part in fingerprints.NOT_ENGINE_PARTS))
    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path / "cache"))
    kept = fingerprints.engine_version_file()
    assert kept.is_relative_to(tmp_path / "cache")

    def version() -> str:
        fingerprints.engine_version.cache_clear()
        return fingerprints.engine_version()

    try:
        hashed = version()
        stamp, said = kept.read_text().split()
        assert said == hashed
        kept.write_text(f"{stamp}\n0123456789abcdef")
        assert version() == "0123456789abcdef"  # the kept hash stands for the files: none is read
        kept.chmod(0o666)
        assert version() == hashed  # a kept file another user could write is not believed
        kept.chmod(0o600)
        kept.write_text(f"{stamp}\n0123456789abcdef")
        engine_file = harness / "engine" / "judging.py"
        engine_file.write_text(engine_file.read_text() + "\n")
        edited = version()
        assert edited not in (hashed, "0123456789abcdef")  # a file's new stamp: hashed again
        assert kept.read_text().split()[1] == edited
        monkeypatch.setattr(fingerprints, "HARNESS", tmp_path / "another copy")
        assert fingerprints.engine_version_file() != kept  # two copies of the judge never take turns at one file
    finally:
        fingerprints.engine_version.cache_clear()


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


def test_a_result_graded_on_another_machine_stands_in_only_for_a_run_there(project):
    """A cluster worker's result is recorded with the worker's machine (its host and compiler): a run
    here reuses it only when asked with that machine among its own (a cluster of such workers); a
    result whose chunks ran on several, only when all of them are; a reuse records the machine that
    graded it, not the one that reused it."""
    from tcjudge import record as records
    from tcjudge.languages.machine import verdict_machine

    history = History(project / "history.sqlite")
    solution = _stored_run(project)
    elsewhere, beside = "worker-7 Linux 6.1 x86_64 Python 3.11.7", "worker-8 Linux 6.1 x86_64 Python 3.11.7"
    graded = records.replace(_result(solution, [Verdict.AC] * 4), machine=elsewhere)
    history.record("check", [], time.time(), [solution], [graded], {})
    assert history.reusable(solution) is None  # here is not there
    assert history.reusable(solution, lambda path, problem: ()) is None  # no worker said what it is: nothing stands in
    found = history.reusable(solution, lambda path, problem: ("another", elsewhere))
    assert found is not None and found[1].machine == elsewhere
    history.record("check", [], time.time(), [solution], [found[1]], {0: found[0]})
    assert history.reusable(solution) is None  # still not graded here
    with sqlite3.connect(project / "history.sqlite") as db:
        assert [row[0] for row in db.execute("SELECT machine FROM results ORDER BY id")] == [elsewhere] * 2
    split = records.replace(graded, machine=f"{beside} + {elsewhere}")  # chunks on two workers
    history.record("report", [], time.time(), [solution], [split], {})
    assert history.reusable(solution, lambda path, problem: (beside,)) is None  # each result needs elsewhere too
    assert history.reusable(solution, lambda path, problem: (elsewhere, beside))[1].machine == f"{beside} + {elsewhere}"
    history.record("check", [], time.time(), [solution], [_result(solution, [Verdict.AC] * 4)], {})
    assert history.reusable(solution) is not None  # graded here: recorded with this machine
    assert history.reusable(solution)[1].machine == verdict_machine(solution.solution, solution.problem)


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
    """table#grid: the test names of its header (whole, from each name's title, and as shown), and for
    each solution row the verdict written in each test's slot ('none': not run)."""

    def __init__(self):
        super().__init__()
        self.rows, self.names, self.shown = [], [], []
        self.in_grid, self.row_class, self._into, self._text = False, None, None, ""

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.in_grid = attrs.get("id") == "grid"
        elif not self.in_grid:
            return
        elif tag == "tr":
            self.row_class = attrs.get("class")
        elif tag == "th" and attrs.get("class") == "names":
            self._into = "names"
        elif tag == "span" and self._into == "names":
            self.names.append(attrs["title"])
            self.shown.append("")
        elif tag == "td" and attrs.get("class") == "strip" and self.row_class == "solution":
            self._into, self._text = "strip", ""

    def handle_endtag(self, tag):
        if tag == "table":
            self.in_grid = False
        elif tag == "td" and self._into == "strip":
            codes = self._text.split("\n")[0].rstrip()
            self.rows.append([codes[i:i + SLOT].strip().replace("-", "none") for i in range(0, len(codes), SLOT)])
            self._into = None
        elif tag == "th":
            self._into = None

    def handle_data(self, data):
        if self._into == "names" and self.shown:
            self.shown[-1] += data
        elif self._into == "strip":
            self._text += data


def test_report_page_names_every_test_and_writes_every_verdict(run, project):
    out = project / "out"
    run("report", "--out", out)
    data = json.loads((out / "adder.json").read_text())
    assert data["format_version"] == 1
    parser = GridParser()
    parser.feed((out / "adder.html").read_text())
    assert len(parser.rows) == len(data["solutions"]) == 2
    assert parser.names == parser.shown == ["example-0", "example-1", "big", "negative"]
    assert parser.rows == [[t["verdict"] for t in s["tests"]] for s in data["solutions"]]
    assert parser.rows[1] == ["AC", "AC", "WA", "AC"]
    index = (out / "index.html").read_text()
    assert 'href="adder.html"' in index and "2/2" in index
    markdown = (out / "adder.md").read_text()
    assert "overflows_32_bits.py  ..W." in markdown
    assert "http" not in (out / "adder.html").read_text().replace("http-equiv", "")  # no network resource


def test_long_test_names_are_shortened_in_the_header_and_whole_in_its_title():
    assert short_name("system-001") == "system-001"
    shown = [short_name(f"edge-thirteen-back-to-start-pit-{n}") for n in (2, 3)]
    assert shown == ["edge-thi\u2026t-pit-2", "edge-thi\u2026t-pit-3"] and all(len(s) <= NAME_SHOWN for s in shown)
    strip = solution_strip([Verdict.AC, Verdict.WA, None], [1.0, 12.5, 0], ["a", "b", "c"])
    assert strip["codes"] == " AC   WA   -   " and strip["cpu"] == " 1.0  12"
    assert strip["label"] == "AC on 1 of 3 tests; WA on b; not run on c"


# Colour vision deficiencies simulated as Machado, Oliveira and Fernandes (2009) do, at severity 1,
# on linear RGB; colours compared in CIELAB (D65).
DEFICIENCIES = {
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
}


def _linear(colour: str) -> list[float]:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    return [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]


def _contrast(a: str, b: str) -> float:
    la, lb = (0.2126 * r + 0.7152 * g + 0.0722 * b_ for r, g, b_ in (_linear(a), _linear(b)))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def _lab(rgb: list[float]) -> tuple[float, float, float]:
    r, g, b = (min(1.0, max(0.0, c)) for c in rgb)
    x, y, z = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b, \
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z)]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def test_verdict_colours_are_told_apart_by_colour_blind_readers_and_meet_wcag_contrast():
    assert set(PALETTE) == {"AC", "WA", "TLE", "MLE", "RE", "CE", "IE", "none"}
    for verdict, colour in PALETTE.items():
        assert _contrast(colour, "#000000") >= 4.5, f"black text on {verdict} ({colour}) is below WCAG AA"
    for vision, matrix in [("normal", None), *DEFICIENCIES.items()]:
        seen = {v: _lab(_linear(c) if matrix is None else [sum(m * c for m, c in zip(row, _linear(c))) for row in matrix])
                for v, c in PALETTE.items()}
        for a, b in itertools.combinations(seen, 2):
            distance = math.dist(seen[a], seen[b])
            assert distance > 20, f"{a} and {b} are {distance:.1f} apart in CIELAB under {vision}"


def test_chart_labels_never_overlap_and_the_limit_says_its_value():
    """Every time limit problem.yaml allows (0.1 s to 60 s): the labels keep clear of each other and
    of the edges; a 2 s limit reads "2 s limit", its "1 s" mark apart from it."""
    for limit_ms in [100 * n for n in range(1, 600)]:
        axis = spread_axis(limit_ms)
        spans = sorted(label_span(label) for label in axis["labels"])
        assert spans[0][0] >= 0 and spans[-1][1] <= axis["width"], limit_ms
        assert all(a[1] + LABEL_GAP <= b[0] for a, b in zip(spans, spans[1:])), (limit_ms, axis["labels"])
    labels = {label["text"]: label for label in spread_axis(2000)["labels"]}
    assert "2 s limit" in labels and "1 s" in labels and labels["2 s limit"]["x"] > labels["1 s"]["x"]


def test_solution_text_is_escaped_in_the_page(project):
    solution = _stored_run(project)
    hostile = '</script><script>alert(1)</script><img src=x onerror="alert(2)">'
    result = _result(solution, [Verdict.WA, Verdict.AC, Verdict.AC, Verdict.AC])
    result.tests[0].message = result.tests[0].returned = result.tests[0].output = hostile
    page = problem_page(solution.problem, [result], [], "now", "here")
    assert "<script>alert" not in page and "<img" not in page
    blob = re.search(r'<script type="application/json" id="details">(.*?)</script>', page, re.S).group(1)
    assert json.loads(blob)["solutions"][0]["cells"][0][5] == hostile


# -- progress and failure details ------------------------------------------------------------------

def test_plain_progress_line_comes_on_its_own_off_a_terminal():
    stream = io.StringIO()
    with Progress(10, 2, live=False, every=0.01, stream=stream) as progress:
        progress.test_done("solutions/x.py")
        deadline = time.monotonic() + 120  # (a hang's guard, not a bound: at load 42 the ticker took over 10 s)
        while "\n" not in stream.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
    line = stream.getvalue().splitlines()[0]
    assert line.startswith("judge: 1/10 tests, 0/2 solutions, grading solutions/x.py, ") and "left" in line


def test_phases_say_the_phase_and_how_far_it_is_on_stderr_off_a_terminal(capsys):
    """validate's progress: its plain line names the problem, the phase and its count when it has one."""
    now = [100.0]
    progress = Phases("validating sum-two", live=False, clock=lambda: now[0])
    assert progress.stream is sys.stderr
    progress.phase("verify.py on every test", 41)
    for _ in range(3):
        progress.advance()
    now[0] += 62
    assert progress.plain_line() == "judge: validating sum-two: verify.py on every test, 3/41, 1m02s elapsed"
    progress.phase("generator.py in a copy of the folder")
    assert progress.plain_line() == "judge: validating sum-two: generator.py in a copy of the folder, 1m02s elapsed"


def test_the_time_left_is_asked_safely_while_the_pool_reports_tests():
    """The ticker thread asks for the time left while the pool's threads report tests: once, in a
    real 30-minute report, the estimate's deque changed under that loop and the ticker died with a
    traceback, so the run went silent. Threads switched as often as the interpreter allows."""
    plan = [Planned(f"s{i}", 2000, [0.001] * 2000) for i in range(4)]
    progress = Progress(8000, 4, live=False, every=3600, stream=io.StringIO(), plan=plan, workers=4)
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        workers = [threading.Thread(target=lambda name=p.name: [progress.test_done(name) for _ in range(2000)])
                   for p in plan]
        for worker in workers:
            worker.start()
        while any(worker.is_alive() for worker in workers):
            progress.seconds_left()
        for worker in workers:
            worker.join()
    finally:
        sys.setswitchinterval(switch)
    assert progress.tests_done == 8000



def test_a_plan_given_once_tests_are_done_estimates_as_one_given_at_the_start():
    # A fresh run reads the history's plan while its tests run (runs.OpenedOnUse): the tests done
    # before it came are counted into the estimate as if it had been there.
    plan = [Planned(f"s{i}", 6, [0.5, 0.2, 0.2, 0.2, 0.2, 0.2]) for i in range(2)]
    now = [0.0]
    early, late = (Progress(12, 2, live=False, stream=io.StringIO(), plan=given, workers=1, clock=lambda: now[0])
                   for given in (plan, None))
    for step in range(5):
        now[0] += 0.3 if step else 0.7
        early.test_done("s0")
        late.test_done("s0")
        if step == 3:
            late.planned(plan)
    assert late.estimate is not None and early.seconds_left() == late.seconds_left()

def _simulated(solutions, workers: int = 2, overhead: float = 0.004, load=lambda now: 1.0):
    """A pool's run: tests handed out in order to the first free worker; (time, solution) as each
    test finishes, and the run's length. `solutions`: (name, each test's true seconds); a name
    "compiled N" takes N seconds more on its first test; `load(t)`: how much slower than that a
    test that starts at t runs."""
    free, events = [0.0] * workers, []
    for name, costs in solutions:
        for index, cost in enumerate(costs):
            worker = free.index(min(free))
            compile_time = float(name.split()[1]) if name.startswith("compiled") and not index else 0
            free[worker] += (cost + overhead + compile_time) * load(free[worker])
            events.append((free[worker], name))
    return sorted(events), max(free)


def _eta_errors(solutions, recorded, workers: int = 2) -> tuple[float, float]:
    """The worst relative error, once a fifth of the run is done, of the estimated time left (up to
    four fifths, where it is still long enough to speak of) and of the run's length (up to the end)."""
    events, length = _simulated(solutions, workers)
    estimate = Estimate([record if isinstance(record, Planned) else Planned(name, len(costs), record)
                         for (name, costs), record in zip(solutions, recorded)], workers, 0.0)
    worst_left = worst_length = 0.0
    asked = 0.0
    for now, name in events:
        estimate.done(name, now)
        if now >= max(length / 5, asked + 0.5):  # as the progress asks: every half second at most
            asked = now
            left = estimate.left(now)
            worst_length = max(worst_length, abs((now + left) / length - 1))
            if now <= length * 4 / 5:
                worst_left = max(worst_left, abs(left / (length - now) - 1))
    return worst_left, worst_length


def test_the_time_left_is_within_30_percent_once_a_fifth_of_the_run_is_done():
    """Simulated runs on 2 workers, recorded wall times off by up to 20% from this run's: roxor's shape
    (ten fast solutions, one TLE solution spending 2 s on each of 138 tests) with the TLE solution
    late or first; with two solutions the history never saw; with the judge's own cost per test ten
    times the recorded wall time; with two solutions compiled first, for 8 s and 5 s; 70 solutions of
    300 tests. The pace of the last minute, which the
    progress used before, was off by up to 8x in the first of them, the whole run's pace by 90%."""
    rng = random.Random(18)

    def fast(n=138):
        return [rng.uniform(0.001, 0.004) for _ in range(n)]

    def tle(n=138):
        return [2.05 * rng.uniform(0.98, 1.02) for _ in range(n)]

    def record(costs):
        return [c * rng.uniform(0.8, 1.2) for c in costs]

    roxor = [(f"fast{i}", fast()) for i in range(8)] + [("tle", tle())] + [(f"late{i}", fast()) for i in range(2)]
    scenarios = {
        "TLE late": (roxor, [record(c) for _, c in roxor]),
        "TLE first": (roxor[8:9] + roxor[:8] + roxor[9:], [record(c) for _, c in roxor[8:9] + roxor[:8] + roxor[9:]]),
        "never graded": (roxor, [None if name.startswith("late") or name == "fast3" else record(c) for name, c in roxor]),
        "judge's cost": ([(n, [0.02] * 138) for n, _ in roxor[:8]] + roxor[8:9],
                         [[0.002] * 138] * 8 + [record(roxor[8][1])]),
    }
    compiled = [("compiled 8", fast()), ("compiled 5", fast())] + roxor[2:]
    scenarios["compiles"] = (compiled, [record(c) for _, c in compiled])
    big = [(f"s{i}", [2.05 if rng.random() < 0.3 else rng.uniform(0.01, 0.3) for _ in range(300)] if i % 10 == 3 else
            [rng.choice([0.002, 0.01, 0.05]) * rng.uniform(0.5, 2) for _ in range(300)]) for i in range(70)]
    scenarios["70 x 300"] = (big, [record(c) for _, c in big])
    for label, (solutions, recorded) in scenarios.items():
        left, length = _eta_errors(solutions, recorded)
        assert left <= 0.3 and length <= 0.3, (label, left, length)


def _typical(records):
    """The median of the records that have each test, as History.plan takes it."""
    columns = [[r[i] for r in records if r is not None and r[i] is not None] for i in range(len(records[0]))]
    return [sorted(c)[len(c) // 2] if c else None for c in columns]


def test_the_time_left_of_a_first_report_after_a_check_is_within_30_percent():
    """After a `check`, a failing solution's record stops at its first failure; a `report` then runs
    all its tests. The TLE solution (fast on its 20 small tests, then 2 s on each of the 118 others),
    stopped by the check on its first big test, and a solution the history never saw: their other
    tests are guessed from the problem's other records (eta.guessed_costs). Taking them at the median
    solution's pace, as the estimate did before, left it 51-81% too low through a real full report."""
    rng = random.Random(21)

    def fast(n=138):
        return [rng.uniform(0.001, 0.004) * (1 + 3 * (i >= 20)) for i in range(n)]

    def record(costs, stop=None):
        return [c * rng.uniform(0.8, 1.2) if stop is None or i <= stop else None for i, c in enumerate(costs)]

    tle = [rng.uniform(0.001, 0.004) for _ in range(20)] + [2.05] * 118
    wrong = fast()
    solutions = [(f"fast{i}", fast()) for i in range(6)] + [("tle", tle), ("wrong", wrong), ("new", fast())] + \
                [(f"late{i}", fast()) for i in range(3)]
    stopped = {"tle": 20, "wrong": 2}
    records = [None if name == "new" else record(costs, stopped.get(name)) for name, costs in solutions]
    typical = _typical(records)
    plans = [Planned(name, len(costs), r if r is not None and None not in r else
                     guessed_costs(r or [None] * 138, typical, 2.0, 20 if name == "tle" else None),
                     guessed=r is None or None in r) for (name, costs), r in zip(solutions, records)]
    assert plans[6].costs[30] == pytest.approx(2.0 * TIMED_OUT_SHARE) and plans[7].costs[30] < 0.1  # the TLE guess
    for order in (solutions, solutions[6:7] + solutions[:6] + solutions[7:]):
        by_name = {p.name: p for p in plans}
        left, length = _eta_errors(order, [by_name[name] for name, _ in order])
        assert left <= 0.3 and length <= 0.3, (order[0][0], left, length)


def test_the_time_left_follows_the_machine_when_its_load_changes():
    """The machine gets 2.2x faster 100 s into roxor's shape (as the dev machine did under a real
    report): from a minute after the change, the time left is within 30% again. Before it, no
    estimate could know."""
    rng = random.Random(7)
    solutions = [(f"fast{i}", [rng.uniform(0.001, 0.004) for _ in range(138)]) for i in range(5)] + \
                [("tle", [2.05] * 138)] + [(f"late{i}", [rng.uniform(0.001, 0.004) for _ in range(138)]) for i in range(5)]
    events, length = _simulated(solutions, load=lambda now: 2.2 if now < 100 else 1.0)
    estimate = Estimate([Planned(name, len(costs), costs) for name, costs in solutions], 2, 0.0)
    errors = []
    for now, name in events:
        estimate.done(name, now)
        if 160 <= now <= length * 0.9:
            errors.append(estimate.left(now) / (length - now) - 1)
    assert errors and max(map(abs, errors)) <= 0.3, errors


def _plan(project):
    catalog = Catalog(project / "problems", project / "solutions", EXTENSIONS)
    problem = catalog.problem("adder")
    runs = [SolutionRun(problem, s.path, problem.tests, stop, s.expected)
            for s in catalog.stored_solutions("adder") for stop in (False, True)]
    runs.append(SolutionRun(problem, project / "new.py", problem.tests, False))
    history = History(project / "history.sqlite")
    try:
        return history.plan(runs)
    finally:
        history.close()


def test_the_history_plans_each_solution_by_its_last_full_run(run, project):
    run("check")  # the second solution stops at "big", the third test: the rest of its tests are guessed
    plan = _plan(project)
    assert [p.guessed for p in plan] == [False, False, True, True, True]
    assert plan[2].costs[3] > 0 and plan[3].costs[3] == 0 and plan[2].costs[:3] == plan[3].costs[:3]
    # never graded: each test at the typical cost (the upper median of the two records that have it)
    assert plan[4].costs == [max(a, b) for a, b in zip(plan[0].costs[:3], plan[2].costs[:3])] + plan[0].costs[3:]
    run("report")
    plan = _plan(project)
    assert [p.tests for p in plan] == [4] * 5 and [p.guessed for p in plan] == [False] * 4 + [True]
    assert all(cost > 0 for cost in plan[0].costs + plan[1].costs + plan[2].costs)
    assert plan[3].costs[:3] == plan[2].costs[:3] and plan[3].costs[3] == 0  # the check stops at "big", the third
    with Progress(8, 2, live=False, every=60, stream=io.StringIO(), plan=plan[:2], workers=1) as progress:
        progress.test_done(plan[0].name)
        assert re.search(r"about \d+s left$", progress.plain_line())


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
    _, _, err = run("check", "--hide-expected", "--all-tests")
    assert "--hide-expected reuses no recorded result" in err  # said: a long regrade is no mystery
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


# -- the index: a dashboard ------------------------------------------------------------------------

def test_the_index_shows_changes_since_the_previous_report_even_when_a_check_saw_them_first(run, project):
    """The "changes" column was always empty: it showed how many changes the page's own run found, and
    nothing at all for none or for a first run; and a setter checks after each edit, so the next
    report compared with that check and found none. The index now compares the report with the
    previous report in the history."""
    out = project / "out"
    run("report", "--out", out)
    assert "first report" in (out / "index.html").read_text()
    (project / "solutions" / "adder" / "accepted" / "straightforward.py").write_text(WRONG)
    _, checked, _ = run("check")
    assert "straightforward.py: AC -> WA" in checked
    _, reported, _ = run("report", "--out", out)
    assert "changes since the last run: none" in reported  # the check was the last run
    row = _index_rows(out)["adder"]
    assert "1 change since" in row and "<code>accepted/straightforward.py</code>: AC \u2192 WA" in row
    run("report", "--out", out)
    assert "none since" in _index_rows(out)["adder"]


def test_the_index_lists_mismatches_first_with_the_slug_and_links_to_each_file(run, project):
    shutil.copytree(FIXTURE_PROBLEMS / "adder", project / "problems" / "bdder")  # same name, another slug
    shutil.copytree(project / "solutions" / "adder", project / "solutions" / "bdder")
    (project / "solutions" / "bdder" / "accepted" / "straightforward.py").write_text(WRONG)
    out = project / "out"
    run("report", "--out", out)
    rows = _index_rows(out)
    assert list(rows) == ["bdder", "adder"]  # bdder has a mismatch
    for slug in rows:
        for name in (f"{slug}.html", f"{slug}.md", f"{slug}.json"):
            assert f'href="{name}"' in rows[slug] and (out / name).is_file()
        assert f'<code class="slug">{slug}</code>' in rows[slug]
    assert "1 MISMATCH" in rows["bdder"] and "solutions/bdder/accepted/straightforward.py" in rows["bdder"]


def _index_rows(out) -> dict[str, str]:
    """The index's rows in order, by slug: each row's HTML."""
    body = (out / "index.html").read_text().split("<tbody>")[1]
    return {re.search(r'<code class="slug">(.*?)</code>', row).group(1): row for row in body.split("<tr")[1:]}
