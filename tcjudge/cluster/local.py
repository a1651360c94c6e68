"""A real Dask cluster on this machine: `dask scheduler` and `dask worker` processes on 127.0.0.1 with
random ports, for the judge's tests and benchmarks (and to try `--cluster` on one machine).

Every wait is bounded and everything started here is stopped on exit, by process group. A process
killed before it could stop them (SIGTERM, kill -9, a `timeout`) takes them with it: the scheduler and
the workers end with the thread that started them (cluster/tether.py), and what they started with them.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import psutil

from ..protected import PROJECT_ROOT
from ..record import record
from .tether import tethered
from .worker_command import WORKER_ENVIRONMENT

START_TIMEOUT = 60.0  # seconds for the scheduler to write its address and the workers to register
STOP_TIMEOUT = 15.0  # seconds for a process group to end after SIGTERM before it gets SIGKILL
SELF_STOP = 120  # seconds without a scheduler after which a worker quits (left over by a crashed test)
ZYGOTE_MARK = "tcjudge.engine.zygote"
# Put first on the path of `judge_on_workers=False` workers: their interpreter then finds no judge even
# where one is installed beside their packages (the README's first command installs it), as on a
# machine without it. Every process the workers start inherits the path.
WITHOUT_THE_JUDGE = '''"""Made by tcjudge.cluster.local: this interpreter plays a machine without the judge."""
import sys


class _NoJudge:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name.partition(".")[0] == "tcjudge":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, _NoJudge)
'''


class LocalCluster:
    def __init__(self, address: str, scheduler: subprocess.Popen, workers: subprocess.Popen, workdir: Path):
        self.address, self.scheduler, self.workers, self.workdir = address, scheduler, workers, workdir

    def worker_processes(self) -> list[psutil.Process]:
        """The Dask worker processes (the nannies' children that run tasks)."""
        return [child for child in _children(self.workers.pid) if "spawn_main" in _cmdline(child)]

    def zygotes(self) -> list[psutil.Process]:
        """Judge worker processes (zygotes) running under the Dask workers: busy or spare."""
        return [p for p in _children(self.workers.pid, recursive=True) if ZYGOTE_MARK in _cmdline(p)]

    def busy_zygotes(self) -> list[psutil.Process]:
        """The zygotes given a solution (they have a child: a test's, or the next test's made ahead);
        a spare, started ahead for a worker's next task, has none."""
        return [zygote for zygote in self.zygotes() if _children(zygote.pid)]

    def processes(self) -> list[psutil.Process]:
        """Every process under the `dask worker` command: worker processes, zygotes, test children."""
        return _children(self.workers.pid, recursive=True)

    def log(self) -> str:
        return "".join((self.workdir / name).read_text(errors="replace")[-4000:]
                       for name in ("scheduler.log", "workers.log") if (self.workdir / name).exists())


@record(frozen=True)
class TLSFiles:
    """One CA and one certificate with its key, used by every role (scheduler, workers, client)."""
    ca: Path
    cert: Path
    key: Path

    def arguments(self) -> list[str]:
        return ["--tls-ca-file", str(self.ca), "--tls-cert", str(self.cert), "--tls-key", str(self.key)]

    def environment(self) -> dict[str, str]:
        """What a client (the judge's CLI) needs in its environment to connect."""
        return {"DASK_DISTRIBUTED__COMM__TLS__CA_FILE": str(self.ca),
                "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT": str(self.cert),
                "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY": str(self.key),
                "DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION": "True"}


@contextmanager
def local_cluster(nworkers: int = 2, cache: Path | None = None, tls: TLSFiles | None = None,
                  judge_on_workers: bool = True):
    """A scheduler and `nworkers` worker processes (one thread each), torn down with their folder on
    exit; with `tls`, every connection is TLS with those certificates. `judge_on_workers=False`: workers that cannot
    import the judge, installed in this environment or not, as on a machine without it."""
    workdir = Path(tempfile.mkdtemp(prefix="judge-dask-"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(PROJECT_ROOT), os.environ.get("PYTHONPATH")])),
               JUDGE_CLUSTER_CACHE=str(cache or workdir / "cache"), **WORKER_ENVIRONMENT)
    worker_env = env if judge_on_workers else dict(env, PYTHONPATH=str(_without_the_judge(workdir)))
    scheduler_file = workdir / "scheduler.json"
    started: list[subprocess.Popen] = []
    try:
        secure = ["--protocol", "tls", *tls.arguments()] if tls else []
        started.append(_start([sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port", "0",
                               "--no-dashboard", "--scheduler-file", str(scheduler_file), *secure],
                              workdir / "scheduler.log", env, workdir))
        address = _wait_for_address(scheduler_file, started[0])
        started.append(_start([sys.executable, "-m", "dask", "worker", address, "--host", "127.0.0.1",
                               "--nworkers", str(nworkers), "--nthreads", "1", "--no-dashboard",
                               "--death-timeout", str(SELF_STOP), "--local-directory", str(workdir),
                               *(tls.arguments() if tls else [])],
                              workdir / "workers.log", worker_env, workdir))
        cluster = LocalCluster(address, started[0], started[1], workdir)
        _wait_for_workers(cluster, nworkers, tls)
        yield cluster
    finally:
        for process in reversed(started):
            _stop_group(process)
        shutil.rmtree(workdir, ignore_errors=True)  # (its logs, scratch space and scheduler file: 326 were left in /tmp)


def _without_the_judge(workdir: Path) -> Path:
    folder = workdir / "without-the-judge"
    folder.mkdir()
    (folder / "sitecustomize.py").write_text(WITHOUT_THE_JUDGE)
    return folder


def _start(command: list[str], log: Path, env: dict, cwd: Path) -> subprocess.Popen:
    with open(log, "wb") as out:
        return subprocess.Popen(tethered(command), stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                env=env, cwd=cwd, start_new_session=True)


def _wait_for_address(scheduler_file: Path, scheduler: subprocess.Popen) -> str:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if scheduler.poll() is not None:
            raise RuntimeError(f"dask scheduler exited with status {scheduler.returncode}")
        try:
            return json.loads(scheduler_file.read_text())["address"]
        except (OSError, ValueError, KeyError):
            time.sleep(0.1)
    raise TimeoutError(f"dask scheduler gave no address within {START_TIMEOUT:g} s")


def _wait_for_workers(cluster: LocalCluster, count: int, tls: TLSFiles | None) -> None:
    from distributed import Client
    from distributed.security import Security

    security = Security(tls_ca_file=str(tls.ca), tls_client_cert=str(tls.cert), tls_client_key=str(tls.key),
                        require_encryption=True) if tls else None
    with Client(cluster.address, timeout=START_TIMEOUT, set_as_default=False, security=security) as client:
        client.wait_for_workers(count, timeout=START_TIMEOUT)


def _stop_group(process: subprocess.Popen) -> None:
    """SIGTERM to the process group we started, SIGKILL if it lingers past STOP_TIMEOUT; then reap."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        deadline = time.monotonic() + STOP_TIMEOUT
        while time.monotonic() < deadline:
            if process.poll() is not None and not _group_alive(process.pid):
                return
            time.sleep(0.1)
    process.wait(STOP_TIMEOUT)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False


def _children(pid: int, recursive: bool = False) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=recursive)
    except psutil.NoSuchProcess:
        return []


def _cmdline(process: psutil.Process) -> str:
    try:
        return " ".join(process.cmdline())
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return ""
