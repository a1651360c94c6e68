"""Start-up: a command imports only what it uses (the command line reads which command is named before
importing any), its output stays what it was, and the zygotes started ahead (engine/spares.py) are
handed out once each, replaced when dead and ended when unused. Speed itself is benchmarks/startup.py's."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import threading

import pytest

from tcjudge import cli
from tcjudge.engine.spares import Spares

from . import budget
from .conftest import FIXTURE_PROBLEMS, ROOT, TESTDATA

SOLUTION = TESTDATA / "solutions" / "accepted.py"
HEAVY = ("jinja2", "rich", "tcjudge.setter", "tcjudge.cluster", "tcjudge.reports.pages")


def test_grade_imports_no_other_command_nor_pages_nor_rich(tmp_path):
    program = ("import sys; from tcjudge.cli import main; "
               f"code = main(['--problems', {str(FIXTURE_PROBLEMS)!r}, '--history', {str(tmp_path / 'h.sqlite')!r}, "
               f"'grade', {str(SOLUTION)!r}, '--examples']); "
               f"print(code, sorted(m for m in sys.modules if m.startswith({HEAVY!r}) "
               "or m.startswith('tcjudge.commands.') and m.split('.')[-1] not in ('grade', 'common')))")
    done = budget.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT, cpu=120,
                          env={key: value for key, value in os.environ.items() if key != "JUDGE_CLUSTER"})
    assert done.stdout.splitlines()[-1] == "0 []", done.stdout + done.stderr


def parsed_output(parser, argv, capsys) -> tuple[object, str, str]:
    """(exit status or None, stdout, stderr) of parsing argv."""
    try:
        parser.parse_args(argv)
        code = None
    except SystemExit as stop:
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", [
    ["--help"], ["-h", "grade", "x.py"], ["--he", "grade"], ["--problems", "p", "--help", "check"],  # the main help
    ["grade", "--help"], ["check", "-h"], ["--problems", "p", "doctor", "--help"],  # one command's help
    ["grade"], ["gradee", "x.py"], ["--source-limit", "0", "grade", "x.py"], ["-j", "2", "grade", "x.py"],
    ["grade", "x.py", "--jobs", "0"], ["--h", "h.sqlite", "grade", "x.py"], ["--version", "grade"],
])
def test_the_parser_of_the_named_command_alone_says_what_the_full_one_says(argv, capsys):
    full = parsed_output(cli._parser(), argv, capsys)
    assert full[0] is not None  # each line ends in help, a version or a usage error: there is output to compare
    assert parsed_output(cli._parser(argv), argv, capsys) == full


def test_the_main_help_lists_every_command(capsys):
    _, out, _ = parsed_output(cli._parser(["-h", "grade"]), ["-h", "grade"], capsys)
    listed = [line.split()[0] for line in out.split("COMMAND\n", 2)[-1].splitlines()
              if line.startswith("    ") and not line.startswith("     ")]
    assert sorted(listed) == sorted(cli._command_names()) and listed[0] == "grade"


def test_a_named_command_parses_as_with_every_command():
    argv = ["--problems", "p", "grade", "x.py", "--examples", "-j", "1", "--history", "h.sqlite"]
    alone, everything = vars(cli._parser(argv).parse_args(argv)), vars(cli._parser().parse_args(argv))
    assert alone == everything and alone["examples"] and alone["jobs"] == 1


def started(spares: Spares, count: int) -> list:
    """The spares' started zygotes, once `count` are (they are started by a thread of their own)."""
    with spares._changed:
        spares._changed.wait_for(lambda: len(spares._started) >= count)
        return list(spares._started)


def test_a_spare_is_the_zygote_started_ahead_and_goes_to_one_taker():
    with Spares() as spares:
        spares.start(2)
        ahead = {worker.process.pid for worker in started(spares, 2)}
        first, second = spares.take(), spares.take()
        try:
            assert {first.process.pid, second.process.pid} == ahead and first.baseline_kib > 0
            third = spares.take()  # none left: a new one
            assert third.process.pid not in ahead and third.alive()
            third.close()
        finally:
            first.close()
            second.close()


def test_a_dead_spare_is_replaced_and_unused_spares_are_ended():
    spares = Spares(ahead=1)
    spares.start()
    [dead] = started(spares, 1)
    os.kill(dead.process.pid, signal.SIGKILL)
    dead.process.wait()
    worker = spares.take()
    try:
        assert worker is not dead and worker.alive()
        [kept] = started(spares, 1)  # `ahead`: one more started for the next taker
        assert kept.alive() and kept is not worker
    finally:
        worker.close()
        spares.close()
    assert not kept.alive() and spares._started == []


def test_a_spare_outlives_the_thread_that_asked_for_it():
    """A zygote ends with the thread that started it: the spare asked for by a taker whose thread has
    ended (a Pool's worker thread) is still there for the next taker."""
    with Spares(ahead=1) as spares:
        taken: list = []
        taker = threading.Thread(target=lambda: taken.append(spares.take()))
        taker.start()
        taker.join()
        taken[0].close()
        [replacement] = started(spares, 1)
        replacement.wait_ready()  # WorkerDied if it had been killed with the taker's thread
        assert replacement.alive() and spares.take() is replacement
        replacement.close()


def test_a_later_grade_imports_neither_the_sandbox_nor_what_other_kinds_need(tmp_path):
    # The zygote confines; the judge's own process needs none of the sandbox's code once the layers'
    # warning is kept, nor the output validator, the interactive passes or the Kattis kinds for one
    # of our own method problems (each was several milliseconds of every start).
    unwanted = ("tcjudge.engine.sandbox", "ctypes", "tcjudge.engine.passes", "tcjudge.problems.checkers.output_validator",
                "tcjudge.problems.checkers.testlib", "tcjudge.problems.kattis", "pkgutil", "difflib")
    program = ("import sys; from tcjudge.cli import main; "
               f"code = main(['--problems', {str(FIXTURE_PROBLEMS)!r}, '--history', {str(tmp_path / 'h.sqlite')!r}, "
               f"'grade', {str(SOLUTION)!r}, '--examples']); "
               f"print(code, sorted(m for m in sys.modules if m.startswith({unwanted!r})))")
    env = {key: value for key, value in os.environ.items() if key != "JUDGE_CLUSTER"} | {"JUDGE_CACHE": str(tmp_path)}
    for _ in range(2):  # the first run probes the layers and keeps the warning
        done = budget.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT, cpu=120,
                              env=env)
    assert done.stdout.splitlines()[-1] == "0 []", done.stdout + done.stderr


ZYGOTE_AND_CHILD = """if True:
    import json, sys
    sys.path.insert(0, sys.argv[1])
    from tcjudge.engine.worker import Worker

    zygote = Worker()
    try:
        zygote.load(("probe",), sys.argv[2], "Probe", "writes", 2, 256, check=False)
        print(json.loads(zygote.run(()).report)["value"])
    finally:
        zygote.close()
"""


@pytest.mark.parametrize("judge_writes", [True, False])
def test_a_zygote_writes_its_modules_bytecode_as_the_judge_does_and_a_child_writes_none(tmp_path, judge_writes):
    """A zygote started without its modules' bytecode compiled them at every start (a third of it)."""
    shutil.copytree(ROOT / "tcjudge", tmp_path / "tcjudge", ignore=shutil.ignore_patterns("__pycache__"))
    probe = tmp_path / "probe.py"
    probe.write_text("import sys\n\nclass Probe:\n    def writes(self):\n        return int(not sys.dont_write_bytecode)\n")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    done = budget.run([sys.executable, *([] if judge_writes else ["-B"]), "-c", ZYGOTE_AND_CHILD, str(tmp_path),
                           str(probe)], capture_output=True, text=True, env=env, cpu=120)
    assert done.stdout.split() == ["0"], done.stdout + done.stderr  # a solution's imports write nothing
    written = {path.name.split(".")[0] for path in (tmp_path / "tcjudge" / "engine").glob("__pycache__/*.pyc")}
    assert ({"zygote", "child", "watch"} <= written) is judge_writes, written


def test_a_python_grade_imports_no_other_languages_module_and_starts_to_wait_without_the_history(tmp_path):
    # The history is opened while the solution loads and its tests run (by the helper, whose start is
    # spied on), and records the result with Python's version alone.
    program = ("import sys\n"
               "from tcjudge import runs\n"
               "quietly = runs._quietly\n"
               "def spy(work):\n"
               "    print('LOADED', sorted(m for m in sys.modules if m.startswith('tcjudge.languages.')))\n"
               "    print('HISTORY', [m for m in ('tcjudge.reports.history', 'sqlite3', 'tcjudge.problems.scoring',\n"
               "                              'tcjudge.problems.expectations', 'hashlib', 'tcjudge.reports.eta',\n"
               "                              'tcjudge.problems.timing', 'dataclasses', 'inspect') if m in sys.modules])\n"
               "    return quietly(work)\n"
               "runs._quietly = spy\n"
               "from tcjudge.cli import main\n"
               f"code = main(['--problems', {str(FIXTURE_PROBLEMS)!r}, '--history', {str(tmp_path / 'h.sqlite')!r}, "
               f"'grade', {str(SOLUTION)!r}, '--examples'])\n"
               "print('AFTER', code, sorted(m for m in sys.modules if m.startswith('tcjudge.languages.')))\n")
    done = budget.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT, cpu=120,
                          env={key: value for key, value in os.environ.items() if key != "JUDGE_CLUSTER"})
    said = {line.split()[0]: line for line in done.stdout.splitlines() if line.startswith(("LOADED", "AFTER", "HISTORY"))}
    own = "['tcjudge.languages.base', 'tcjudge.languages.python', 'tcjudge.languages.versions']"
    assert said["LOADED"] == f"LOADED {own}", done.stdout + done.stderr
    recorded = "['tcjudge.languages.base', 'tcjudge.languages.machine', 'tcjudge.languages.python', 'tcjudge.languages.versions']"
    assert said["AFTER"] == f"AFTER 0 {recorded}", said  # recorded with its own compiler's version alone
    assert said["HISTORY"] == "HISTORY []", said  # nor a scoring problem's or a stored solution's modules


def test_work_meanwhile_starts_as_the_solution_loads_ends_with_the_grading_and_fails_quietly(capsys, monkeypatch):
    from argparse import Namespace
    from io import StringIO

    from tcjudge.engine.pool import SolutionRun
    from tcjudge.engine.worker import Worker
    from tcjudge.problems.loader import load_problem
    from tcjudge.reports.progress import Progress
    from tcjudge import runs as runs_module
    from tcjudge.runs import grade_runs

    problem = load_problem(FIXTURE_PROBLEMS / "adder")
    options = Namespace(cluster=None, jobs=1, source_limit=256)
    started, load = threading.Event(), Worker.load
    during_load = []  # whether the work had started while the solution loaded (it waits that long for it)

    def loading(self, *args, **kwargs):
        during_load.append(started.wait(10))
        return load(self, *args, **kwargs)

    monkeypatch.setattr(Worker, "load", loading)
    for work in ("record", "fail"):
        seen, during_load[:] = [], []
        started.clear()
        with Progress(3, 1, live=False, stream=StringIO()) as progress:
            meanwhile = ((lambda: (started.set(), seen.append(sys.getswitchinterval()))) if work == "record"
                         else (lambda: 1 / 0))
            [result] = grade_runs(options, [SolutionRun(problem, SOLUTION, problem.tests[:3], False)], progress,
                                  meanwhile=meanwhile)
        assert str(result.verdict) == "AC"
        if work == "record":  # started as the solution loaded, done when the grading returned,
            assert during_load == [True] and len(seen) == 1, (during_load, seen)  # with woken worker
            assert seen[0] <= runs_module.MEANWHILE_SWITCH_INTERVAL < sys.getswitchinterval()  # threads served promptly
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("argv, grading", [
    (["grade", "x.py"], True), (["--problems", "p", "grade", "x.py", "-j", "2"], True),
    (["--history=h.sqlite", "--source-limit", "9", "grade", "x.py"], True), (["grade", "x.py", "--examples"], True),
    (["check"], False), (["--history", "grade", "check"], False), (["grade", "x.py", "--cluster", "tcp://h:1"], False),
    (["grade", "x.py", "--cluster=tcp://h:1"], False), (["-h", "grade"], False), (["grade", "--help"], False),
    (["grade", "-h"], False), (["--h", "h.sqlite", "grade", "x.py"], False), ([], False), (["--problems"], False),
])
def test_the_entry_point_guesses_a_grading_from_the_words_alone(argv, grading, monkeypatch):
    from tcjudge import launch

    monkeypatch.delenv("JUDGE_CLUSTER", raising=False)
    assert launch.starts_a_grading(argv) is grading
    monkeypatch.setenv("JUDGE_CLUSTER", "tcp://h:1")
    assert launch.starts_a_grading(argv) is False


def test_the_entry_point_starts_a_gradings_zygote_before_the_command_line_is_imported(tmp_path):
    program = ("import sys\n"
               "from tcjudge.engine import spares\n"
               "start = spares.Spares.start\n"
               "def spy(self, count=1):\n"
               "    print('ASKED', [m for m in ('argparse', 'tcjudge.cli', 'tcjudge.problems') if m in sys.modules],\n"
               "          flush=True)\n"
               "    start(self, count)\n"
               "spares.Spares.start = spy\n"
               f"sys.argv = ['judge', '--problems', {str(FIXTURE_PROBLEMS)!r}, '--history', "
               f"{str(tmp_path / 'h.sqlite')!r}] + sys.argv[1:]\n"
               "from tcjudge.launch import run\n"
               "run()\n")
    for words, code, asked in (([str(SOLUTION), "--examples"], 0, "ASKED []"),
                               ([str(tmp_path / "missing.py")], 2, "ASKED []")):
        done = budget.run([sys.executable, "-c", program, "grade", *words], capture_output=True, text=True,
                              cwd=ROOT, cpu=120,
                              env={key: value for key, value in os.environ.items() if key != "JUDGE_CLUSTER"})
        said = [line for line in done.stdout.splitlines() if line.startswith("ASKED")]
        assert (done.returncode, said) == (code, [asked]), done.stdout + done.stderr
    done = budget.run([sys.executable, "-c", program, "history"], capture_output=True, text=True, cwd=ROOT,
                          cpu=120, env={key: value for key, value in os.environ.items() if key != "JUDGE_CLUSTER"})
    assert "ASKED" not in done.stdout and done.returncode == 0, done.stdout + done.stderr
