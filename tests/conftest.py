"""Shared fixtures: paths to the harness's own test data and a way to run the CLI in-process."""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import signal
import sys
from pathlib import Path

import psutil
import pytest

from tcjudge.cli import main

ROOT = Path(__file__).resolve().parent.parent
TESTDATA = ROOT / "testdata"
FIXTURE_PROBLEMS = TESTDATA / "problems"
FIXTURE_SOLUTIONS = TESTDATA / "solutions"
EXPECT_LINE = re.compile(r"^(?:#|//) expect: (\w+)$", re.MULTILINE)  # Python, or C++ and Java
# Where a newer Python's own rules give a solution another verdict (docs/verdicts.md, "Python versions"):
# `# expect from Python 3.12: RE` after the `# expect:` line, for that version and the later ones.
EXPECT_FROM_LINE = re.compile(r"^# expect from Python 3\.(\d+): (\w+)$", re.MULTILINE)

# Ctrl-C stops the run, wherever it lands. pytest stops at a KeyboardInterrupt that reaches it, but
# the judge's own rule turns one into exit status 130 (cli.main): a judge run in-process (`judge`
# below) swallowed the Ctrl-C, its test failed and the next one began. So a Ctrl-C is noted here, and
# raised again after such a judge and at the end of every test. Caught here, Ctrl-C is also at its
# default again in the processes the tests start (execve resets a handler, not SIG_IGN): a run a shell
# started in the background (`pytest &`) inherits it ignored, and the tests that interrupt a judge
# would see it go on.
_ctrl_c: list[int] = []


def _on_ctrl_c(signum, frame):
    _ctrl_c.append(signum)
    signal.default_int_handler(signum, frame)


signal.signal(signal.SIGINT, _on_ctrl_c)


def stop_if_interrupted() -> None:
    """Raise again the KeyboardInterrupt of a Ctrl-C that something caught (pytest then stops)."""
    if _ctrl_c:
        raise KeyboardInterrupt


AFTER_THE_TEST: list = []  # what a test's helpers made and must close when it ends (tests/test_serve.py's Site)


def pytest_collection_modifyitems(config, items):
    """The slow tests first (the README pair: minutes, one test): under pytest-xdist a worker takes them
    at the start while the other runs the rest, not at the end with the other worker idle."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True)
def _close_what_the_test_opened():
    """Close what the test's helpers registered in AFTER_THE_TEST: a contest store left open kept its
    connections' descriptors for the rest of the run (over 1024 by test_setter_validate in CI)."""
    yield
    while AFTER_THE_TEST:
        AFTER_THE_TEST.pop()()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """After each test: a Ctrl-C that the test's code caught (a test of cli.main, of runs) stops the run."""
    outcome = yield
    stop_if_interrupted()
    return outcome


@functools.cache
def nobody_cannot_read_checkout() -> str | None:
    """Why uid 65534 cannot read this checkout, or None. A clone into `mktemp -d` lies in a folder
    only its owner may enter: the tests that drop to uid 65534 then skip, saying so, instead of
    failing on a file they cannot open (they run where the checkout is readable, as in CI)."""
    if os.geteuid() != 0:
        return None
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            os._exit(0 if os.access(__file__, os.R_OK) else 1)
        except BaseException:  # noqa: BLE001
            os._exit(2)
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) == 0:
        return None
    return f"uid 65534 cannot read this checkout ({ROOT}): a folder above it lets only its owner in"


def zygote_pids() -> set[int]:
    """The zygotes this test's process has started that are alive now (a zombie or one gone meanwhile aside)."""
    found = set()
    for child in psutil.Process().children():
        try:
            if "tcjudge.engine.zygote" in " ".join(child.cmdline()):
                found.add(child.pid)
        except psutil.Error:
            pass
    return found


def expected_verdict(path: Path, version: tuple[int, int] = sys.version_info[:2]) -> str:
    """The verdict a fixture solution declares for the Python that runs the tests (and grades it: the
    zygotes run sys.executable): its `# expect: X` line, or the `# expect from Python 3.N: X` line
    of the latest version this one has reached."""
    text = path.read_text()
    match = EXPECT_LINE.search(text)
    assert match, f"{path} has no '# expect:' line"
    verdict, reached = match.group(1), -1
    for minor, later in EXPECT_FROM_LINE.findall(text):
        if reached < int(minor) <= version[1] and version[0] == 3:
            verdict, reached = later, int(minor)
    return verdict


@pytest.fixture
def judge(capsys, tmp_path):
    """Run `judge.py ARGS...` in-process with a run history of the test's own (so no result is reused
    from another test); returns (exit code, stdout, stderr)."""

    def run(*args: str) -> tuple[int, str, str]:
        code = main(["--history", str(tmp_path / "history.sqlite")] + [str(a) for a in args])
        stop_if_interrupted()  # a Ctrl-C that main() made exit status 130 stops the run, not only this judge
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def read_json():
    return lambda path: json.loads(Path(path).read_text())


def stored_fixture(tmp_path: Path, copies: dict[str, list[str]], time_limit: float | None = None) -> tuple[Path, Path]:
    """A problems folder with the adder fixture and a solutions folder of testdata/solutions files
    stored under their expected-verdict folders (several copies each to make work for the workers)."""
    problems, solutions = tmp_path / "problems", tmp_path / "solutions"
    shutil.copytree(FIXTURE_PROBLEMS / "adder", problems / "adder")
    if time_limit:
        spec = problems / "adder" / "problem.yaml"
        spec.write_text(spec.read_text().replace("time_limit: 0.5", f"time_limit: {time_limit}"))
    for folder, names in copies.items():
        (solutions / "adder" / folder).mkdir(parents=True)
        for number, name in enumerate(names):
            shutil.copy(FIXTURE_SOLUTIONS / name, solutions / "adder" / folder / f"{number}_{name}")
    return problems, solutions


# The judge's own entries in a site-packages folder: its package, its metadata, an editable install's hooks.
JUDGE_ENTRIES = ("tcjudge", "topcoder_judge", "__editable__.topcoder_judge", "__editable___topcoder_judge")


def packages_without_the_judge(folder: Path) -> str:
    """A .pth line that gives a new virtual environment this environment's packages, but no install of
    the judge that may be among them (`pip install .` into the environment that runs the tests, as the
    README's first command does): `folder` gets a link to every other entry of each site-packages
    folder, and the line adds it as a site folder (so the .pth files among them are read as before)."""
    import site

    folder.mkdir(parents=True, exist_ok=True)
    for site_folder in map(Path, site.getsitepackages()):
        for entry in sorted(site_folder.iterdir()) if site_folder.is_dir() else ():
            if not entry.name.lower().startswith(JUDGE_ENTRIES) and not (folder / entry.name).exists():
                (folder / entry.name).symlink_to(entry)
    return f"import site; site.addsitedir({str(folder)!r})\n"