"""What runs on a Dask worker: grade a chunk of one solution's tests with the local engine (a Pool of
one zygote, so one test at a time per worker process and CPU timing stays honest) and return plain
data; and describe the worker for `doctor --cluster` and the client's isolation check.

Tasks are idempotent (a fresh instance per test, nothing kept but the bundle cache, the loaded
problems and a spare zygote that never served a solution), so the scheduler may rerun a chunk whose
worker died and the result is the same as if it never had. Each worker process keeps one zygote
started ahead (engine/spares.py): a task takes it and starts the next one, so a zygote's start
(50-150 ms) overlaps the task before instead of delaying this one; the spare is ended when the
worker closes (a WorkerPlugin's teardown).
"""

from __future__ import annotations

import functools
import hashlib
import os
import platform
import sys
import threading
from pathlib import Path

import distributed
from distributed import WorkerPlugin, get_worker
from distributed.worker import thread_state

from ..engine.pool import Pool, SolutionRun
from ..engine.spares import Spares

from ..engine.results import TestResult
from ..engine.isolation import all_layers
from ..languages import EXTENSIONS
from ..languages.machine import machine_for, verdict_machine
from ..problems.format import Problem
from ..problems.loader import load_problem
from ..record import asdict
from ..verdicts import Verdict
from .bundle import materialise

HARNESS_ROOT = Path(__file__).resolve().parents[1]
CANCEL_POLL = 0.2  # seconds between checks that the client still wants the running chunk
_problems: dict[str, Problem] = {}  # bundle key -> loaded problem, per worker process
_problems_lock = threading.Lock()
SPARES_PLUGIN = "tcjudge-spare-zygotes"
_spares: Spares | None = None  # this worker process's zygote started ahead
_spares_lock = threading.Lock()


def grade_chunk(problem_bundle: dict, solution_bundle: dict, test_names: list[str], stop_on_failure: bool,
                source_limit: int, verdicts_only: bool, stops_above_ms: float | None = None) -> dict:
    """Grade the named tests of one solution, in order, exactly as a local run would (with
    `verdicts_only`, nothing showing expected values or inputs leaves the worker)."""
    problem = _problem(problem_bundle)
    solution = materialise(solution_bundle, "solutions")
    by_name = {test.name: test for test in problem.tests}
    run = SolutionRun(problem, solution, [by_name[name] for name in test_names], stop_on_failure,
                      verdicts_only=verdicts_only, stops_above_ms=stops_above_ms)
    with Pool(1, source_limit=source_limit, spares=_worker_spares()) as pool:
        stop_watching = _cancel_when_abandoned(pool)
        try:
            pool.grade([run])
        finally:
            stop_watching()
    outcome = run.load_outcome
    return {
        "results": [encode_test(result) if result else None for result in run.results],
        "load_outcome": [outcome[0].value, outcome[1]] if outcome else None,
        "baseline_mib": run.baseline_mib,
        "warnings": sorted(pool.warnings),
        "active_layers": active_layers(),
        "worker": get_worker().address,
        "machine": verdict_machine(solution, problem),  # what of this worker can change the verdict (the history's key)
    }


def encode_test(result: TestResult) -> dict:
    """Every field of a TestResult as plain data (the verdict by its name)."""
    data = asdict(result)
    data["verdict"] = result.verdict.value if result.verdict else None
    return data


def decode_test(data: dict) -> TestResult:
    return TestResult(**{**data, "verdict": Verdict(data["verdict"]) if data["verdict"] else None})


def _problem(bundle: dict) -> Problem:
    with _problems_lock:
        if bundle["key"] not in _problems:
            if len(_problems) >= 32:  # a long-lived worker sees many problems; keep memory bounded
                _problems.clear()
            _problems[bundle["key"]] = load_problem(materialise(bundle, "problems"))
        return _problems[bundle["key"]]


def _worker_spares() -> Spares:
    """This worker process's spare zygotes, made on its first task (with the plugin that ends them)."""
    global _spares
    with _spares_lock:
        if _spares is None:
            _spares = Spares(ahead=1)
            worker = get_worker()
            worker.loop.add_callback(worker.plugin_add, plugin=EndSpares(), name=SPARES_PLUGIN)
        return _spares


class EndSpares(WorkerPlugin):
    """Ends the worker process's spare zygote when the worker closes (a zygote would end with the
    process anyway; this ends it first, so it cleans up after itself)."""

    def teardown(self, worker) -> None:
        global _spares
        with _spares_lock:
            spares, _spares = _spares, None
        if spares is not None:
            spares.close()


def _cancel_when_abandoned(pool: Pool):
    """Watch the running task's state; when the client cancels it (or goes away), kill its tests
    so a worker never keeps grading for nobody. Returns the function that stops the watch."""
    worker, key = get_worker(), thread_state.key
    finished = threading.Event()

    def watch() -> None:
        while not finished.wait(CANCEL_POLL):
            task = worker.state.tasks.get(key)
            if task is None or task.state != "executing":
                pool.cancel()
                return

    threading.Thread(target=watch, name=f"cancel-watch-{key}", daemon=True).start()
    return finished.set


@functools.cache
def active_layers() -> list[str]:
    return sorted(layer.name for layer in all_layers() if layer.active)


@functools.cache
def code_fingerprint() -> str:
    """A short hash of the judge's own source: two machines grade alike only if it matches."""
    digest = hashlib.sha256()
    for path in sorted(HARNESS_ROOT.rglob("*.py")):
        digest.update(path.relative_to(HARNESS_ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def worker_machine(extension: str | None, own_format: bool | None = None) -> str:
    """This worker's verdict_machine for a solution in the language of `extension` (None: nothing
    compiled) on a problem in our own format or not, asked by the client to know which recorded
    results its workers' would equal."""
    return machine_for(EXTENSIONS[extension] if extension else None, own_format)


def worker_info(dask_worker) -> dict:
    """What `doctor --cluster` shows for a worker, and what the client compares with its own
    (run through Client.run, which passes the worker)."""
    return {
        "host": platform.node(),
        "system": f"{platform.system()} {platform.release()} ({platform.machine()})",
        "uid": os.getuid(),
        "python": platform.python_version(),
        "distributed": distributed.__version__,
        "judge": code_fingerprint(),
        "nthreads": dask_worker.state.nthreads,
        "layers": [[layer.name, layer.active, layer.detail] for layer in all_layers()],
        "executable": sys.executable,
    }
