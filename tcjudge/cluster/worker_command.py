"""`judge worker SCHEDULER`: a Dask worker started the way grading needs it: one thread per process
(so a test's CPU time is its own) and one process per core, with its scratch folder (the bundle
cache and Dask's spill space) made fresh and removed when the worker ends."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from ..errors import JudgeInputError
from .tether import tethered


# Dask's worker samples every thread's stack every 10 ms for its dashboard's profile page, which the
# judge's workers do without: on 2 cores, the sampling cost the grading thread about 5% of its
# tests (benchmarks/cluster.py, every test of the accepted solutions on one worker).
WORKER_ENVIRONMENT = {"DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False"}


def worker_command(address: str, processes: int, scratch: Path) -> list[str]:
    return [sys.executable, "-m", "dask", "worker", address, "--nthreads", "1", "--nworkers", str(processes),
            "--local-directory", str(scratch), "--no-dashboard"]


def serve_worker(address: str, processes: int | None = None, under: Path | None = None) -> int:
    """Run the worker until it ends (Ctrl-C or SIGTERM stop it); its exit status."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise JudgeInputError("judge worker needs dask.distributed: pip install 'topcoder-judge[cluster]'") from None
    processes = processes or len(os.sched_getaffinity(0))
    try:
        scratch = Path(tempfile.mkdtemp(prefix="judge-worker-", dir=under))
    except OSError as err:  # --scratch names no folder, or one we may not write in (or no temp folder is usable)
        if under is None:
            raise JudgeInputError(f"cannot make a scratch folder in the system's temp folder: {err.strerror} "
                                  "(name one with --scratch DIR)") from None
        raise JudgeInputError(f"cannot make the scratch folder there: {err.strerror}", under) from None
    env = dict(os.environ, JUDGE_CLUSTER_CACHE=str(scratch / "bundles"), **WORKER_ENVIRONMENT)
    process = subprocess.Popen(tethered(worker_command(address, processes, scratch)), env=env)  # ends with us
    previous = signal.signal(signal.SIGTERM, lambda *_: process.terminate())
    try:
        while True:
            try:
                return process.wait()
            except KeyboardInterrupt:  # the worker got the same Ctrl-C: wait for it to end
                continue
    finally:
        signal.signal(signal.SIGTERM, previous)
        if process.poll() is None:
            process.kill()
            process.wait()
        shutil.rmtree(scratch, ignore_errors=True)
