"""However a test run ends (Ctrl-C, SIGTERM, kill -9 of pytest), nothing it started is left soon
after: not its local Dask cluster, not a `judge serve` server, nor their zygotes; and Ctrl-C stops it.

A runner process, made a child subreaper, starts a pytest of tests/teardown_target.py in a process
group of its own (as a shell starts a job). Everything that run starts descends from the runner, and
comes back to it when its parent dies (setsid or not), instead of going to pid 1: the run's
processes are the runner's descendants, and the runner reaps them and exits once none is left.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

pytest.importorskip("distributed", reason="dask.distributed is not installed (pip install '.[cluster]')")
for _module in ("starlette", "argon2", "httpx"):  # the target's server (tests/test_serve_server.py)
    pytest.importorskip(_module)

from tcjudge.cluster.local import ZYGOTE_MARK, local_cluster  # noqa: E402

from .conftest import ROOT  # noqa: E402

TARGET = ROOT / "tests" / "teardown_target.py"
STARTING = 240.0  # seconds: a bound on the wait for the run to reach its middle (a cluster's start, on a busy machine)
ENDING = 120.0  # seconds: a bound on the wait for the run's last process to end (pytest's teardown, on a busy machine)
PYTEST_INTERRUPTED = 2  # pytest's exit status after a KeyboardInterrupt
RUNNER = """
import os, subprocess, sys
from tcjudge.engine.processes import PR_SET_CHILD_SUBREAPER, die_with_parent, prctl
die_with_parent(int(sys.argv[1]))  # the runner and its pytest end with the test, whatever happens to it
prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
runner = os.getpid()
with open(sys.argv[2], "wb") as log:
    pytest = subprocess.Popen(sys.argv[3:], stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                              process_group=0, preexec_fn=lambda: die_with_parent(runner))
print(pytest.pid, flush=True)
while True:
    try:
        pid, status = os.wait()
    except ChildProcessError:
        break
    if pid == pytest.pid:
        pytest.returncode = os.waitstatus_to_exitcode(status)
        print(pytest.returncode, flush=True)
"""


class _Run:
    """A pytest of the target under the runner: its processes are the runner's descendants."""

    def __init__(self, folder: Path):
        self.log = folder / "inner.log"
        inner = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--basetemp", str(folder / "inner"),
                 str(TARGET)]
        self.runner = subprocess.Popen([sys.executable, "-c", RUNNER, str(os.getpid()), str(self.log), *inner],
                                       cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
        self.pytest = int(self.runner.stdout.readline())

    def ended(self) -> bool:
        """Whether the runner has exited: no process of the run is left."""
        return self.runner.poll() is not None

    def processes(self) -> dict[int, tuple[int, str, bool]]:
        """The run's live processes: pid -> (parent, command line, has children)."""
        found = {}
        try:
            below = psutil.Process(self.runner.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return found
        for process in below:
            try:
                if process.status() != psutil.STATUS_ZOMBIE:
                    found[process.pid] = (process.ppid(), " ".join(process.cmdline()), bool(process.children()))
            except psutil.Error:  # gone meanwhile
                pass
        return found

    def in_the_middle(self) -> bool:
        """A zygote under a Dask worker process runs a test (it has a child), and one under the server."""
        processes = self.processes()

        def testing_under(mark: str) -> bool:
            return any(ZYGOTE_MARK in line and busy and mark in processes.get(parent, (0, ""))[1]
                       for parent, line, busy in processes.values())

        return testing_under("spawn_main") and testing_under(" serve ")

    def reach_the_middle(self) -> None:
        if not _wait_for(lambda: self.ended() or self.in_the_middle(), STARTING) or self.ended():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.pytest, signal.SIGINT)  # for its report of what failed
            _wait_for(self.ended, ENDING)
            raise AssertionError(f"the run never reached a cluster's test:\n{self.log.read_text()}")

    def pytest_status(self) -> int:
        return int(self.runner.stdout.read())

    def close(self) -> None:
        if not self.ended():
            for pid in self.processes():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            self.runner.kill()
        self.runner.wait()
        self.runner.stdout.close()


def _wait_for(condition, bound: float) -> bool:
    deadline = time.monotonic() + bound
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


@pytest.mark.parametrize("how", ["Ctrl-C", "SIGTERM", "SIGKILL"])
def test_a_run_stopped_in_the_middle_of_a_cluster_check_leaves_nothing(tmp_path, how):
    run = _Run(tmp_path)
    try:
        run.reach_the_middle()
        if how == "Ctrl-C":
            os.killpg(run.pytest, signal.SIGINT)  # as a terminal does: to the foreground job's process group
        else:
            os.kill(run.pytest, getattr(signal, how))
        left = {} if _wait_for(run.ended, ENDING) else run.processes()
        assert not left, f"left running {ENDING:g} s after {how}:\n" + "\n".join(
            f"{pid} (parent {parent}): {line}" for pid, (parent, line, _) in left.items()) + f"\n{run.log.read_text()}"
        if how == "Ctrl-C":  # pytest stopped by itself, as interrupted
            assert run.pytest_status() == PYTEST_INTERRUPTED and "KeyboardInterrupt" in run.log.read_text(), \
                run.log.read_text()
        else:
            assert run.pytest_status() == -getattr(signal, how)
    finally:
        run.close()


def test_a_judge_worker_killed_takes_its_dask_worker_with_it(tmp_path):
    """kill -9 of `judge worker`: before, its Dask worker went on serving the scheduler."""
    from distributed import Client

    with local_cluster(nworkers=1, cache=tmp_path / "cache") as running:
        process = subprocess.Popen([sys.executable, str(ROOT / "judge.py"), "worker", running.address, "--processes",
                                    "1", "--scratch", str(tmp_path)], cwd=tmp_path, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            with Client(running.address, timeout=STARTING) as dask_client:
                dask_client.wait_for_workers(2, timeout=STARTING)
            below = psutil.Process(process.pid).children(recursive=True)  # its nanny and worker process
            process.kill()
            process.wait()
            assert _wait_for(lambda: not any(map(_alive, below)), ENDING), [p.cmdline() for p in below if _alive(p)]
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _alive(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
