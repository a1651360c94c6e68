"""The client's side of cluster grading: SolutionRuns become Dask tasks, their plain results become the
same TestResults and GradeResults a local Pool makes, through the same callbacks, so everything the
CLI does with a local run (tables, JSON, history, exit codes) works unchanged.

A run that stops at its first failure is one task (its tests in order on one worker, as `-j 1` would
grade them); a run of every test is split into chunks that run in parallel. A problem's folder is
shipped once per run as a task of its own whose result the grading tasks depend on: the scheduler
holds its bytes, so it is rebuilt wherever a worker that held it has died.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from pathlib import Path

from ..errors import JudgeInputError

try:
    import distributed  # noqa: F401  (an optional extra: say how to get it instead of a traceback)
except ImportError:
    raise JudgeInputError("--cluster needs dask.distributed: pip install 'topcoder-judge[cluster]'") from None

from ..engine.pool import DoneCallback, SolutionRun, TestCallback

from ..engine.results import GradeResult, TestResult
from ..engine.isolation import all_layers, layer_table
from ..languages import EXTENSIONS
from ..languages.machine import MACHINES_JOINED
from ..problems.format import Problem, language_of
from ..protocol import SOURCE_LIMIT, SourceError
from ..verdicts import Verdict
from .bundle import pack_folder, pack_solution
from .tasks import code_fingerprint, decode_test, encode_test, grade_chunk, worker_info, worker_machine

CONNECT_TIMEOUT = 20.0  # seconds to reach the scheduler
NO_WORKERS_TIMEOUT = 60.0  # seconds the cluster may have no usable worker before the run is given up
POLL = 1.0  # seconds between checks on the cluster while waiting for results
TASKS_PER_WORKER = 4  # a run of every test is split until there are about this many tasks per worker...
MIN_CHUNK = 16  # ...but no task has fewer tests than this (each task loads the solution into a zygote of its own)
RETRIES = 2  # reruns of a task that raised (a worker that dies is handled by the scheduler itself)


def connect(address: str):
    """A Dask client for `address`, with TLS settings from Dask's configuration (docs/cluster.md)."""
    from distributed import Client
    from distributed.security import Security

    security = Security()
    if address.startswith("tls://") and not (security.tls_client_cert and security.tls_ca_file):
        raise JudgeInputError(f"{address} needs TLS certificates: set DASK_DISTRIBUTED__COMM__TLS__CA_FILE, "
                              "..._CLIENT__CERT and ..._CLIENT__KEY (see docs/cluster.md)")
    try:
        return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False, security=security)
    except (OSError, TimeoutError, ValueError) as err:
        raise JudgeInputError(f"cannot reach the Dask scheduler at {address}: {err}") from None


def _workers_info(client, address: str) -> dict[str, dict]:
    """Every worker's description, after waiting (bounded) for at least one to be there; one line
    (JudgeInputError) for a scheduler or worker that cannot run the judge, before any grading."""
    try:
        client.wait_for_workers(1, timeout=NO_WORKERS_TIMEOUT)
    except TimeoutError:
        raise JudgeInputError(f"the Dask scheduler at {address} has no workers "
                              f"(waited {NO_WORKERS_TIMEOUT:g} s)") from None
    try:
        client.run_on_scheduler(code_fingerprint)
    except Exception as err:  # unpickling our function failed there: no judge, or a broken one
        raise JudgeInputError(f"the Dask scheduler at {address} cannot load the judge ({_one_line(err)}): "
                              "install the same topcoder-judge on the scheduler and every worker") from None
    infos = client.run(worker_info, on_error="return")
    broken = sorted((worker, err) for worker, err in infos.items() if isinstance(err, BaseException))
    if broken:
        worker, err = broken[0]
        more = f" (and {len(broken) - 1} more worker(s))" if len(broken) > 1 else ""
        raise JudgeInputError(f"worker {worker} cannot run the judge ({_one_line(err)}){more}: install the same "
                              "topcoder-judge on every worker (`judge worker ADDRESS` starts one, docs/cluster.md)")
    return infos


def _one_line(err: BaseException) -> str:
    text = " ".join(str(err).split())
    return f"{type(err).__name__}: {text[:200]}"


def weaker_layers(active_there: list[str]) -> list[str]:
    """The layers active on this machine but not among a worker's active layers."""
    return sorted({layer.name for layer in all_layers() if layer.active} - set(active_there))


def active_in(info: dict) -> list[str]:
    """The names of the active layers in a worker's description."""
    return [name for name, active, _ in info["layers"] if active]


def _host(address: str) -> str:
    return address.split("://", 1)[-1].rsplit(":", 1)[0]


class ClusterPool:
    """Grades SolutionRuns on the workers of a Dask scheduler; used like engine.pool.Pool."""

    def __init__(self, address: str, require_isolation: bool = False, source_limit: int = SOURCE_LIMIT):
        self.address, self.source_limit = address, source_limit
        self.warnings: set[str] = set()
        self._client = connect(address)
        self._futures: dict = {}  # grading task -> (run, test indices)
        self._problems: list = []  # the problem bundles' tasks
        self._machines: dict[tuple[str | None, bool], tuple[str, ...]] = {}  # (extension, own format) -> machines
        try:
            infos = _workers_info(self._client, address)
            self._check_workers(infos, require_isolation)
            # how many tests run at once when the run starts: the threads of the usable workers
            self.jobs = sum(info["nthreads"] for addr, info in infos.items() if self._usable(addr))
        except BaseException:
            self.close()
            raise

    def _check_workers(self, infos: dict[str, dict], require_isolation: bool) -> None:
        """Warn about workers that confine less than this machine or run other judge code; with
        `require_isolation`, grade only on hosts where every worker confines as well as this one."""
        weak_hosts, weak_lines = set(), set()
        for address, info in sorted(infos.items()):
            missing = weaker_layers(active_in(info))
            if missing:
                weak_hosts.add(_host(address))
                weak_lines.add(f"worker {address}: weaker isolation than this machine (off there: {', '.join(missing)})")
            if info["judge"] != code_fingerprint():  # verdicts could differ from a local run: refuse, not warn
                raise JudgeInputError(f"worker {address} runs other judge code ({info['judge']}, here "
                                      f"{code_fingerprint()}): install the same topcoder-judge everywhere")
        self._allowed_hosts = None
        if not require_isolation:
            self.warnings |= weak_lines
        else:
            self._allowed_hosts = sorted({_host(address) for address in infos} - weak_hosts)
            if not self._allowed_hosts:
                raise JudgeInputError(f"no worker of the cluster at {self.address} isolates tests as well "
                                      "as this machine (see `judge doctor --cluster`)")
            if weak_hosts:
                self.warnings.add(f"not grading on {', '.join(sorted(weak_hosts))}: weaker isolation "
                                  "than this machine (--cluster-require-isolation)")

    def machines(self, solution: Path, problem: Problem) -> tuple[str, ...]:
        """The verdict_machine strings of the workers that could grade `solution` on `problem` (asked
        once per language and format): a recorded result graded on any of them can stand for grading it here."""
        language = language_of(solution, EXTENSIONS)
        key = (language.extensions[0] if language is not None else None, problem.kind.own_format)
        if key not in self._machines:
            try:
                said = self._client.run(worker_machine, *key, on_error="return", callback_timeout=CONNECT_TIMEOUT)
            except Exception:  # noqa: BLE001 - gone or too slow: nothing is reused, the grading says the rest
                said = {}
            self._machines[key] = tuple(sorted({machine for address, machine in said.items()
                                                if isinstance(machine, str) and self._usable(address)}))
            if not self._machines[key]:
                self.warnings.add("no worker said which machine it is: no recorded result was reused")
        return self._machines[key]

    def _usable(self, address: str) -> bool:
        return self._allowed_hosts is None or _host(address) in self._allowed_hosts

    def __enter__(self) -> ClusterPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Cancel what is still queued or running (the workers kill its tests) and disconnect."""
        client, self._client = getattr(self, "_client", None), None
        if client is None:
            return
        try:
            if self._futures or self._problems:
                client.cancel([*self._futures, *self._problems], force=True)
        finally:
            self._futures, self._problems = {}, []
            client.close(timeout=CONNECT_TIMEOUT)

    def grade(self, runs: list[SolutionRun], on_test: TestCallback | None = None,
              on_done: DoneCallback | None = None, on_started: Callable[[], None] | None = None) -> list[GradeResult]:
        """As engine.pool.Pool.grade; `on_started` once the tasks are submitted."""
        self._futures = self._submit(runs)
        if on_started:
            on_started()
        chunks_left = {id(run): 0 for run in runs}
        for run, _ in self._futures.values():
            chunks_left[id(run)] += 1
        for run in runs:
            if not chunks_left[id(run)]:  # refused before any task (pack_solution): done, nothing ran
                for index, test in enumerate(run.tests):
                    if on_test:
                        on_test(run, index, TestResult(test.name, None))
                if on_done:
                    on_done(run.result())
        finished: queue.SimpleQueue = queue.SimpleQueue()
        for future in self._futures:
            future.add_done_callback(finished.put)
        remaining, idle_since = len(self._futures), None
        while remaining:
            try:
                future = finished.get(timeout=POLL)
            except queue.Empty:
                idle_since = self._watch_workers(idle_since)
                continue
            remaining -= 1
            run, indices = self._futures[future]
            self._apply(run, indices, future, on_test)
            chunks_left[id(run)] -= 1
            if chunks_left[id(run)] == 0 and on_done:
                on_done(run.result())
        self._futures, self._problems = {}, []
        return [run.result() for run in runs]

    def _submit(self, runs: list[SolutionRun]) -> dict:
        client = self._client
        restrictions = {"workers": self._allowed_hosts, "allow_other_workers": False} if self._allowed_hosts else {}
        problems: dict[Path, object] = {}
        futures = {}
        chunks_per_run = -(-TASKS_PER_WORKER * max(1, self.jobs) // max(1, len(runs)))
        for run in runs:
            folder = run.problem.path
            if folder not in problems:
                bundle = pack_folder(folder)
                problems[folder] = client.submit(_carry, bundle, key=f"judge-problem-{bundle['key']}",
                                                 **restrictions)
            try:
                solution = pack_solution(run.solution, self.source_limit)
            except (SourceError, OSError) as err:  # a refused folder: CE here, as a worker would find it
                run.load_outcome = (Verdict.CE, str(err) if isinstance(err, SourceError) else err.strerror)
                continue
            for indices in _chunks(run, chunks_per_run):
                future = client.submit(grade_chunk, problems[folder], solution,
                                       [run.tests[i].name for i in indices], run.stop_on_failure,
                                       self.source_limit, run.verdicts_only, run.stops_above_ms, pure=False,
                                       retries=RETRIES, **restrictions)
                futures[future] = (run, indices)
        self._problems = list(problems.values())
        return futures

    def _apply(self, run: SolutionRun, indices: list[int], future, on_test: TestCallback | None) -> None:
        """Put one finished chunk into its run, as a local Pool would have, and report its tests."""
        try:
            data = future.result()
        except Exception as err:  # the task failed on every try, or kept killing workers: the judge's fault
            message = " ".join(f"internal error: cluster task failed: {type(err).__name__}: {err}".split())[:300]
            data = {"results": [encode_test(TestResult(run.tests[i].name, Verdict.IE, message=message)) for i in indices],
                    "load_outcome": None, "baseline_mib": 0.0, "warnings": [], "active_layers": None}
        self.warnings.update(data["warnings"])
        if data["active_layers"] is not None and self._allowed_hosts is None:
            missing = weaker_layers(data["active_layers"])
            if missing:
                self.warnings.add(f"worker {data['worker']}: weaker isolation than this machine "
                                  f"(off there: {', '.join(missing)})")
        if data["load_outcome"] and run.load_outcome is None:
            verdict, message = data["load_outcome"]
            run.load_outcome = (Verdict(verdict), message)
        if indices[0] == 0 or not run.baseline_mib:
            run.baseline_mib = data["baseline_mib"] or run.baseline_mib
        if data.get("machine"):  # the history records where it was graded: a worker's compiler, not ours
            seen = set(run.graded_on.split(MACHINES_JOINED)) if run.graded_on else set()
            run.graded_on = MACHINES_JOINED.join(sorted(seen | {data["machine"]}))
        for index, encoded in zip(indices, data["results"]):
            if encoded is not None:
                result = decode_test(encoded)
                run.record(index, result)
                if on_test:
                    on_test(run, index, result)

    def _watch_workers(self, idle_since: float | None) -> float | None:
        """Give the run up (bounded) when the cluster has had no usable worker for too long."""
        workers = self._client.scheduler_info(n_workers=-1)["workers"]
        if any(self._usable(address) for address in workers):
            return None
        now = time.monotonic()
        if idle_since is not None and now - idle_since > NO_WORKERS_TIMEOUT:
            raise JudgeInputError(f"the Dask scheduler at {self.address} has had no usable worker "
                                  f"for {NO_WORKERS_TIMEOUT:g} s")
        return idle_since or now


def _carry(bundle: dict) -> dict:
    """A bundle as a task result: workers fetch it from each other, the scheduler can rebuild it."""
    return bundle


def _chunks(run: SolutionRun, wanted: int) -> list[list[int]]:
    """The run's tests in `wanted` tasks of at least MIN_CHUNK tests; a run that stops at its first
    failure stays whole (its tests in order on one worker, as a local run finds that failure)."""
    indices = list(range(len(run.tests)))
    if run.stop_on_failure or wanted <= 1:
        return [indices]
    size = max(MIN_CHUNK, -(-len(indices) // wanted))
    return [indices[start:start + size] for start in range(0, len(indices), size)] or [[]]


def cluster_doctor(address: str) -> tuple[str, bool]:
    """Each worker's isolation layers and versions, marking layers weaker than this machine's; and
    whether every worker confines as well as this machine and runs the same judge code."""
    client = connect(address)
    try:
        infos = _workers_info(client, address)
    finally:
        client.close(timeout=CONNECT_TIMEOUT)
    sections, complete = [f"Cluster {address}: {len(infos)} worker(s); this machine runs judge code "
                          f"{code_fingerprint()}, distributed {distributed.__version__}"], True
    for address, info in sorted(infos.items()):
        missing = weaker_layers(active_in(info))
        same_code = info["judge"] == code_fingerprint()
        complete = complete and not missing and same_code and info["nthreads"] == 1
        notes = [f"weaker than this machine: {', '.join(missing)} off" if missing else "isolation as on this machine",
                 "same judge code" if same_code else "OTHER judge code: install the same judge everywhere"]
        if info["nthreads"] != 1:
            notes.append(f"{info['nthreads']} threads: start workers with --nthreads 1 so CPU timing stays honest")
        header = (f"\nWorker {address} on {info['host']}: {info['system']}, uid {info['uid']}, "
                  f"Python {info['python']}, distributed {info['distributed']}, judge code {info['judge']}, "
                  f"{info['nthreads']} thread(s)\n" + "; ".join(notes))
        sections.append(header + "\n" + layer_table(info["layers"], weaker=set(missing)))
    return "\n".join(sections), complete
