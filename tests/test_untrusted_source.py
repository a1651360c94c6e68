"""The judge never parses untrusted source without limits: the source is capped and read as a
regular file, and compiling happens in the confined, limited child (CE, TLE or MLE), never in
the worker or the judge."""

from __future__ import annotations

import os

from tcjudge.engine import child
from tcjudge.engine.solution import LENGTH, CompiledCode
from tcjudge.engine.worker import Worker

from .conftest import FIXTURE_PROBLEMS

PROBLEMS = ("--problems", FIXTURE_PROBLEMS)
ADDER = "class Adder:\n    def add(self, values, factor):\n        return sum(values) * factor\n"


def test_a_source_over_the_limit_is_ce_without_being_read_whole(judge, tmp_path):
    huge = tmp_path / "huge_literal.py"
    huge.write_text(ADDER + "DATA = '" + "x" * (6 * 1024 * 1024) + "'\n")
    code, out, err = judge(*PROBLEMS, "grade", huge)
    assert code == 1 and "CE  passed 0/4" in out and "over the 256 KiB limit" in out, out + err
    code, out, _ = judge(*PROBLEMS, "--source-limit", "8192", "grade", huge)
    assert code == 0 and "AC  passed 4/4" in out  # the limit is the operator's to set


def test_a_deeply_nested_source_is_ce_and_the_judge_never_parses_it(judge, tmp_path):
    deep = tmp_path / "deep.py"
    deep.write_text(ADDER + "X = " + "-" * 200_000 + "1\n")  # ast.parse: RecursionError in the judge
    code, out, err = judge(*PROBLEMS, "grade", deep)  # no --problem: the class is found by a scan
    assert code == 1 and "Traceback" not in out + err, out + err
    # the parser refuses it (python3 says MemoryError, 3.12 and later "Parser stack overflowed"): no
    # memory limit was reached, and under py_compile (Kattis, DMOJ) it is a compile error
    assert "CE  passed 0/4" in out and "MemoryError: " in out and "memory limit" not in out, out


def test_links_and_devices_are_not_solutions(judge, tmp_path):
    stored = tmp_path / "solutions" / "adder" / "accepted"
    stored.mkdir(parents=True)
    (stored / "zero.py").symlink_to("/dev/zero")
    code, out, err = judge(*PROBLEMS, "--solutions", tmp_path / "solutions", "check")
    assert code == 2 and "zero.py: a stored solution must be a regular file" in err
    worker = Worker()
    try:
        response = worker.load(("zero",), stored / "zero.py", "Adder", "add", 1, 64, check=True)
        assert response == {"ok": False, "compile_error": "the solution is not a regular file"}
    finally:
        worker.close()


def test_compile_warnings_go_to_the_child_not_to_the_worker(tmp_path):
    noisy = tmp_path / "noisy.py"
    noisy.write_text(ADDER + "".join(f"W{i} = {i} is {i}  # {'#' * 40}\n" for i in range(3000)))
    worker = Worker()
    try:
        response = worker.load(("noisy",), noisy, "Adder", "add", 2, 256, check=True)
        assert response["ok"] and '"kind": "loaded"' in response["facts"].report
        assert "SyntaxWarning" in response["facts"].output  # the child's own captured output
        for _ in range(3):  # a source that warns is compiled by every child: each test's output warns
            facts = worker.run(((1, 2), 3))
            assert facts.report.startswith('{"kind": "return", "value": 9') and "SyntaxWarning" in facts.output
        worker._stderr.seek(0, os.SEEK_END)
        assert worker._stderr.tell() == 0, "the worker's own stderr got the solution's warnings"
    finally:
        worker.close()


class _Source:
    """What child._compile reads of a Solution."""

    def __init__(self, source: bytes, code: CompiledCode | None = None):
        self.source, self.path, self.code = source, "/nowhere/solution.py", code
        self.modules: dict[str, bytes] = {}  # one file: no other files to import


def test_the_first_childs_compiled_code_serves_the_children_after_it():
    cache = CompiledCode()
    channel = cache.channel()
    assert channel is not None and cache.channel() is None  # one child compiles at a time
    compiled = child._compile(_Source(ADDER.encode()), channel)  # closes the channel
    cache.collect()
    assert cache.marshaled is not None and cache.channel() is None  # known: nobody compiles again
    loaded = child._compile(_Source(b"raise SystemExit('not compiled')", cache), -1)
    assert loaded == compiled and loaded.co_filename == "/nowhere/solution.py"
    namespace: dict = {}
    exec(loaded, namespace)
    assert namespace["Adder"]().add((1, 2), 3) == 9


def test_compiled_code_that_is_cut_short_or_never_written_is_not_used():
    cache = CompiledCode()
    for written in (b"", LENGTH.pack(10) + b"short", b""):  # a child killed before, or while, writing
        channel = cache.channel()
        os.write(channel, written)
        os.close(channel)
        cache.collect()
        assert cache.marshaled is None
    assert cache.channel() is None, "after three tries every child compiles its own"


def test_tests_after_the_first_report_the_same_lines_of_the_same_file(tmp_path):
    failing = tmp_path / "failing.py"
    failing.write_text("class Adder:\n    def add(self, values, factor):\n\n        raise ValueError(factor)\n")
    worker = Worker()
    try:
        assert worker.load(("failing",), failing, "Adder", "add", 2, 256, check=True)["ok"]
        reports = [worker.run(((1,), n)).report for n in (7, 7, 7)]
        assert len(set(reports)) == 1 and '"line": 4' in reports[0] and '"message": "7"' in reports[0], reports
    finally:
        worker.close()
