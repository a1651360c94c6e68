"""Grading on a real Dask cluster (a scheduler and worker processes on 127.0.0.1 started here): the
same verdicts as a local run, a worker killed mid-run loses nothing, Ctrl-C leaves nothing running."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from tcjudge.engine.pool import Pool, SolutionRun
from tcjudge.engine.isolation import all_layers
from tcjudge.problems.loader import load_problem
from tcjudge.verdicts import Verdict

from .conftest import FIXTURE_PROBLEMS, ROOT, TESTDATA, stored_fixture

pytest.importorskip("distributed", reason="dask.distributed is not installed (pip install '.[cluster]')")
from tcjudge.cluster import bundle, client  # noqa: E402  (the cluster package needs distributed)
from tcjudge.cluster.bundle import BundleError, materialise, pack_file, pack_folder  # noqa: E402
from tcjudge.cluster.local import TLSFiles, local_cluster  # noqa: E402

SOLUTIONS = TESTDATA / "solutions"
WAIT = 60.0  # seconds: the bound on every wait for a process to appear or go away


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with local_cluster(nworkers=2, cache=tmp_path_factory.mktemp("bundle-cache")) as running:
        yield running


def comparable(results: list[dict], every_test: bool = False) -> dict:
    """What must not depend on where a solution ran: its verdict and message, and every test's verdict
    and message up to its first failure (or all of them with `every_test`). A resource verdict's message
    (which limit struck first, and the figures) depends on the machine's load, so only its verdict counts."""
    def message(verdict, text):
        return "" if verdict in ("TLE", "MLE") else text

    out = {}
    for result in results:
        kept = []
        for test in result["tests"]:
            kept.append((test["name"], test["verdict"], message(test["verdict"], test["message"])))
            if test["verdict"] not in ("AC", None) and not every_test:
                break
        out[result["solution"]] = (result["verdict"], result.get("expected"), result["passed"] if every_test else None,
                                   message(result["verdict"], result["message"]), kept)
    return out


def wait_until(condition, what: str, cluster=None):
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"waited {WAIT:g} s for {what}" + (f"\n{cluster.log()}" if cluster else ""))


# -- the whole problem set -------------------------------------------------------------------------

CHOSEN = ("chefgm", "doorsgame")  # 20 stored solutions: Python, C++ and Java; AC, WA, TLE, MLE and RE


def test_check_of_stored_solutions_equals_a_local_run(cluster, judge, read_json, tmp_path):
    """Two problems whose stored solutions cover every language and verdict: the whole set (68) took
    161 s of CI, twice what these do, and says nothing more of the cluster."""
    code_local, _, _ = judge("check", *CHOSEN, "--json", tmp_path / "local.json")
    code, out, err = judge("check", *CHOSEN, "--fresh", "--cluster", cluster.address, "--json", tmp_path / "cluster.json")
    local, remote = read_json(tmp_path / "local.json")["solutions"], read_json(tmp_path / "cluster.json")["solutions"]
    assert code == code_local == 0, out + err
    assert comparable(remote) == comparable(local)
    assert [r["solution"] for r in remote] == [r["solution"] for r in local]
    assert "with 2 worker(s)" in out.splitlines()[0]
    assert f"{len(local)} of {len(local)} solutions got their expected verdict" in out


def test_a_cluster_run_is_recorded_with_its_workers_machine_and_reused_by_the_next(cluster, judge, read_json,
                                                                                   tmp_path, monkeypatch):
    """The client's machine is made to differ from its workers' (they run on this host): the history
    records the workers' machine, a cluster rerun reuses every result, a local run none."""
    import sqlite3

    from tcjudge.languages import PYTHON
    from tcjudge.languages.machine import machine_for
    from tcjudge.reports import history

    problems, solutions = stored_fixture(tmp_path, {"accepted": ["accepted.py"], "wrong_answer": ["wrong_answer.py"]})
    workers = machine_for(PYTHON, own_format=True)
    monkeypatch.setattr(history, "verdict_machine", lambda solution, problem=None: "the client")
    where = ("--problems", problems, "--solutions", solutions)
    code, out, err = judge(*where, "check", "--cluster", cluster.address)
    assert code == 0, out + err
    with sqlite3.connect(tmp_path / "history.sqlite") as db:
        assert {row[0] for row in db.execute("SELECT machine FROM results")} == {workers}
    judge(*where, "check", "--cluster", cluster.address, "--json", tmp_path / "again.json")
    assert read_json(tmp_path / "again.json")["reused"] == 2
    judge(*where, "check", "--json", tmp_path / "here.json")
    assert read_json(tmp_path / "here.json")["reused"] == 0  # graded there, not here


def test_a_package_whose_time_limit_is_computed_is_checked_on_the_cluster(cluster, judge):
    """Two runs in one command (the submissions that bound the limit, then the check): the second
    found the cluster's client closed by the first (a traceback: 'NoneType' object has no attribute 'submit')."""
    code, out, err = judge("--problems", TESTDATA / "kattis", "check", "digitsum", "--cluster", cluster.address)
    assert code == 0 and "got their expected verdict" in out and "Traceback" not in err, out + err


def test_a_run_whose_chunks_ran_on_two_workers_records_both():
    from tcjudge.engine.results import TestResult

    class Done:
        def __init__(self, data):
            self.data = data

        def result(self):
            return self.data

    pool = client.ClusterPool.__new__(client.ClusterPool)  # no scheduler: only the chunks' bookkeeping
    pool.warnings, pool._allowed_hosts = set(), None
    problem = load_problem(FIXTURE_PROBLEMS / "adder")
    run = SolutionRun(problem, SOLUTIONS / "accepted.py", problem.tests[:2], False)
    for index, machine in ((0, "B host"), (1, "A host"), (1, "B host")):
        test = TestResult(run.tests[index].name, Verdict.AC)
        pool._apply(run, [index], Done({"results": [client.encode_test(test)],
                                        "load_outcome": None, "baseline_mib": 1.0, "warnings": [],
                                        "active_layers": None, "machine": machine}), None)
    assert run.graded_on == "A host + B host" and run.result().machine == "A host + B host"


def test_every_test_in_chunks_equals_a_local_run(cluster, judge, read_json, tmp_path, monkeypatch):
    """A run of every test is split over tasks; the merged result is the local one, test by test."""
    monkeypatch.setattr(client, "MIN_CHUNK", 1)  # a task per test
    monkeypatch.setattr(client, "TASKS_PER_WORKER", 100)
    problems, solutions = stored_fixture(tmp_path, {
        "accepted": ["accepted.py"], "wrong_answer": ["wrong_answer.py", "wrong_overflow.py"],
        "runtime_error": ["runtime_error_exception.py"], "compile_error": ["compile_error_syntax.py"],
        "time_limit_exceeded": ["time_limit_at_import.py"]})
    where = ("--problems", problems, "--solutions", solutions)
    code_local, _, _ = judge(*where, "check", "--all-tests", "--json", tmp_path / "local.json")
    code, out, err = judge(*where, "check", "--all-tests", "--fresh", "--cluster", cluster.address, "--json", tmp_path / "cluster.json")
    assert code == code_local == 0, out + err
    local, remote = read_json(tmp_path / "local.json")["solutions"], read_json(tmp_path / "cluster.json")["solutions"]
    assert comparable(remote, every_test=True) == comparable(local, every_test=True)


def test_grade_json_and_exit_code_match_a_local_run(cluster, judge, read_json, tmp_path):
    for name, expected_code in (("wrong_answer.py", 1), ("accepted.py", 0)):
        solution = SOLUTIONS / name
        code_local, out_local, _ = judge("--problems", FIXTURE_PROBLEMS, "grade", solution, "--json", tmp_path / "l.json")
        code, out, err = judge("--problems", FIXTURE_PROBLEMS, "grade", solution, "--cluster", cluster.address,
                               "--json", tmp_path / "c.json")
        assert code == code_local == expected_code, out + err
        assert comparable([read_json(tmp_path / "c.json")]) == comparable([read_json(tmp_path / "l.json")])
        summary = lambda text: next(line for line in text.splitlines() if "passed" in line).split("slowest")[0]
        assert summary(out) == summary(out_local)


def test_a_worker_keeps_a_spare_zygote_between_tasks_and_a_task_takes_it(cluster, judge, tmp_path):
    """Each worker process that ran a task keeps one zygote started ahead, which has never been given a
    solution; the next task on that worker takes it (and starts the next spare)."""
    def spares() -> dict[int, int]:  # worker process -> its idle zygote
        idle = [zygote for zygote in cluster.zygotes() if zygote not in cluster.busy_zygotes()]
        found = {}
        for zygote in idle:
            try:
                found[zygote.ppid()] = zygote.pid
            except psutil.NoSuchProcess:  # (ended since it was listed: helper-39 saw it at load 14-59)
                pass
        return found

    problems, solutions = stored_fixture(tmp_path, {"accepted": ["accepted.py"] * 6})
    code, out, err = judge("--problems", problems, "--solutions", solutions, "check", "--cluster", cluster.address)
    assert code == 0, out + err  # six tasks: both workers have run one
    before = wait_until(lambda: len(spares()) == 2 and spares(), "a spare zygote under each worker", cluster)
    # a zygote that served a solution is not kept (it ends once its task has: a moment later on a busy machine)
    wait_until(lambda: not cluster.busy_zygotes(), "no zygote that served a solution", cluster)
    code, out, err = judge("--problems", FIXTURE_PROBLEMS, "grade", SOLUTIONS / "accepted.py", "--cluster", cluster.address)
    assert code == 0, out + err
    after = wait_until(lambda: len(spares()) == 2 and spares(), "a spare zygote under each worker", cluster)
    assert sum(after[worker] != pid for worker, pid in before.items()) == 1  # the one task's worker took its spare


def test_a_closing_worker_ends_its_spare_zygote():
    from tcjudge.cluster import tasks

    from .test_startup import started

    tasks._spares = spares = tasks.Spares()
    spares.start()
    [zygote] = started(spares, 1)
    tasks.EndSpares().teardown(worker=None)
    assert not zygote.alive() and tasks._spares is None


def test_source_limit_applies_on_the_workers(cluster, judge, read_json, tmp_path):
    """A source over --source-limit is CE on a worker as here (the client ships at most limit + 1 bytes)."""
    where = ("--problems", FIXTURE_PROBLEMS, "--source-limit", "1")
    big = tmp_path / "accepted.py"
    big.write_text((SOLUTIONS / "accepted.py").read_text() + "#" * 2048 + "\n")
    assert judge(*where, "grade", big, "--json", tmp_path / "l.json")[0] == 1
    code, out, err = judge(*where, "grade", big, "--cluster", cluster.address, "--json", tmp_path / "c.json")
    assert code == 1, out + err
    local, remote = read_json(tmp_path / "l.json"), read_json(tmp_path / "c.json")
    assert remote["verdict"] == local["verdict"] == "CE"
    assert remote["message"] == local["message"] and "limit" in local["message"]


def test_report_on_the_cluster_equals_a_local_report(cluster, judge, read_json, tmp_path):
    problems, solutions = stored_fixture(tmp_path, {"accepted": ["accepted.py"], "wrong_answer": ["wrong_answer.py"]})
    where = ("--problems", problems, "--solutions", solutions)
    assert judge(*where, "report", "--out", tmp_path / "local")[0] == 0
    code, out, err = judge(*where, "report", "--out", tmp_path / "cluster", "--fresh", "--cluster", cluster.address)
    assert code == 0, out + err
    local, remote = read_json(tmp_path / "local" / "adder.json"), read_json(tmp_path / "cluster" / "adder.json")
    assert comparable(remote["solutions"], every_test=True) == comparable(local["solutions"], every_test=True)


def test_hide_expected_on_the_cluster_equals_a_local_run(cluster, judge, read_json, tmp_path):
    where = ("--problems", FIXTURE_PROBLEMS, "grade", SOLUTIONS / "wrong_answer.py", "--hide-expected")
    assert judge(*where, "--json", tmp_path / "l.json")[0] == 1
    code, out, err = judge(*where, "--cluster", cluster.address, "--json", tmp_path / "c.json")
    assert code == 1, out + err
    local, remote = read_json(tmp_path / "l.json"), read_json(tmp_path / "c.json")
    assert comparable([remote], every_test=True) == comparable([local], every_test=True)
    assert "expected 12" not in json.dumps(remote) and "expected 12" not in out


def test_judge_cluster_environment_variable(cluster, judge, monkeypatch):
    monkeypatch.setenv("JUDGE_CLUSTER", cluster.address)
    code, out, err = judge("--problems", FIXTURE_PROBLEMS, "grade", SOLUTIONS / "accepted.py")
    assert code == 0, err
    assert "judged in" in out and "with 2 worker(s)" in out


# -- failures: a worker dies, the client is interrupted ---------------------------------------------

def test_a_worker_killed_mid_run_loses_nothing(cluster, judge, read_json, tmp_path, monkeypatch):
    monkeypatch.setattr(client, "MIN_CHUNK", 1)  # a task per test
    monkeypatch.setattr(client, "TASKS_PER_WORKER", 100)
    problems, solutions = stored_fixture(tmp_path, {
        "accepted": ["accepted.py"] * 3, "wrong_answer": ["wrong_answer.py"],
        "time_limit_exceeded": ["time_limit_loop.py"] * 2}, time_limit=1)
    where = ("--problems", problems, "--solutions", solutions)
    code_local, _, _ = judge(*where, "check", "--all-tests", "--json", tmp_path / "local.json")
    killed = []

    def kill_one_busy_worker():
        """kill -9 the first Dask worker process seen running a test (a zygote under it)."""
        def busy():
            running = {zygote.pid for zygote in cluster.busy_zygotes()}
            return next((worker for worker in cluster.worker_processes()
                         if any(child.pid in running for child in worker.children())), None)
        worker = wait_until(busy, "a worker running a test")
        os.kill(worker.pid, signal.SIGKILL)
        killed.append(worker.pid)

    killer = threading.Thread(target=kill_one_busy_worker, daemon=True)
    killer.start()
    code, out, err = judge(*where, "check", "--all-tests", "--fresh", "--cluster", cluster.address, "--json", tmp_path / "cluster.json")
    killer.join(WAIT)
    assert killed, "no worker was killed"
    assert code == code_local == 0, out + err
    local, remote = read_json(tmp_path / "local.json")["solutions"], read_json(tmp_path / "cluster.json")["solutions"]
    assert comparable(remote, every_test=True) == comparable(local, every_test=True)
    # the nanny restarts the killed worker: the cluster is whole again for the next tests
    wait_until(lambda: len(cluster.worker_processes()) == 2, "the killed worker to be replaced", cluster)


def test_ctrl_c_on_the_client_leaves_nothing_running(cluster, tmp_path):
    problems, solutions = stored_fixture(tmp_path, {"time_limit_exceeded": ["time_limit_loop.py"] * 8}, time_limit=5)
    command = [sys.executable, str(ROOT / "judge.py"), "--problems", str(problems), "--solutions", str(solutions),
               "--history", str(tmp_path / "history.sqlite"), "check", "--cluster", cluster.address]
    client_process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        wait_until(lambda: len(cluster.busy_zygotes()) == 2, "both workers to be running a test", cluster)
        client_process.send_signal(signal.SIGINT)
        out, err = client_process.communicate(timeout=WAIT)
    finally:
        if client_process.poll() is None:
            client_process.kill()
            client_process.wait(WAIT)
    assert client_process.returncode == 130, err
    assert "judge: interrupted" in err.decode()
    # within the bound, and well before the 5 s limits of the running tests would end them by themselves
    wait_until(lambda: not cluster.busy_zygotes(), "the workers to stop grading", cluster)
    spares = cluster.zygotes()  # what is left: one spare zygote per worker process, and nothing else
    left = [" ".join(p.cmdline()) for p in cluster.processes() if p not in cluster.worker_processes()
            and p not in spares and "resource_tracker" not in " ".join(p.cmdline())]
    assert left == []
    assert sorted(zygote.ppid() for zygote in spares) == sorted(worker.pid for worker in cluster.worker_processes())


# -- TLS --------------------------------------------------------------------------------------------

def make_certificates(folder: Path) -> TLSFiles:
    """A throw-away CA and one certificate it signed (for 127.0.0.1), made with the openssl command."""
    openssl = shutil.which("openssl")
    if not openssl:
        pytest.skip("the openssl command is not installed")
    ca, ca_key = folder / "ca.pem", folder / "ca-key.pem"
    cert, key, request = folder / "node.pem", folder / "node-key.pem", folder / "node.csr"
    for command in (
        ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=judge-test-ca",
         "-keyout", ca_key, "-out", ca],
        ["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", key, "-out", request],
        ["x509", "-req", "-in", request, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-days", "1", "-out", cert],
    ):
        subprocess.run([openssl, *map(str, command)], check=True, capture_output=True, timeout=WAIT)
    return TLSFiles(ca, cert, key)


def test_tls_cluster_with_certificates_from_the_environment(tmp_path):
    tls = make_certificates(tmp_path)
    grade = [sys.executable, str(ROOT / "judge.py"), "--problems", str(FIXTURE_PROBLEMS),
             "--history", str(tmp_path / "history.sqlite"), "grade", str(SOLUTIONS / "accepted.py")]
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DASK_", "JUDGE_CLUSTER"))}
    with local_cluster(nworkers=1, tls=tls) as cluster:
        assert cluster.address.startswith("tls://127.0.0.1:")
        done = subprocess.run([*grade, "--cluster", cluster.address], capture_output=True, text=True,
                              env=env | tls.environment(), timeout=WAIT * 2)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "AC  passed 4/4" in done.stdout
        # without the client's certificate: one line saying what is missing, exit status 2
        done = subprocess.run([*grade, "--cluster", cluster.address], capture_output=True, text=True,
                              env=env | {"DASK_DISTRIBUTED__COMM__TLS__CA_FILE": str(tls.ca)}, timeout=WAIT * 2)
        assert done.returncode == 2, done.stdout + done.stderr
        assert done.stderr == f"judge: error: {cluster.address} needs TLS certificates: set " \
            "DASK_DISTRIBUTED__COMM__TLS__CA_FILE, ..._CLIENT__CERT and ..._CLIENT__KEY (see docs/cluster.md)\n"


# -- isolation, doctor, and the local path ----------------------------------------------------------

def test_a_worker_without_the_judge_is_one_line_and_exit_2_before_any_grading(judge, tmp_path):
    """Before: a 45-line traceback ending in ModuleNotFoundError."""
    problems, solutions = stored_fixture(tmp_path, {"accepted": ["accepted.py"]})
    with local_cluster(nworkers=1, cache=tmp_path / "cache", judge_on_workers=False) as bare:
        code, out, err = judge("--problems", problems, "--solutions", solutions, "check", "--cluster", bare.address)
    assert code == 2, out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "cannot run the judge (" in lines[0] and "No module named 'tcjudge'" in lines[0], err
    assert " ok " not in out and "MISMATCH" not in out, out
    assert not bare.workdir.exists()  # torn down with its folder (helper-35: 326 judge-dask-* were left in /tmp)


def test_doctor_cluster_shows_every_worker(cluster, judge):
    code, out, err = judge("doctor", "--cluster", cluster.address)
    assert code == 0, out + err
    assert out.startswith(f"Cluster {cluster.address}: 2 worker(s)")
    assert out.count("\nWorker tcp://127.0.0.1:") == 2
    assert out.count("isolation as on this machine; same judge code") == 2
    for layer in all_layers():
        assert out.count(f"\n{layer.name} ") == 2


def info_with(off: set[str], judge_code: str | None = None) -> dict:
    return {"layers": [[layer.name, layer.active and layer.name not in off, layer.detail] for layer in all_layers()],
            "judge": judge_code or client.code_fingerprint(), "nthreads": 1}


def test_weaker_workers_are_reported_and_can_be_refused():
    strong = next(layer.name for layer in all_layers() if layer.active)
    infos = {"tcp://10.0.0.1:1": info_with(set()), "tcp://10.0.0.2:1": info_with({strong})}
    pool = client.ClusterPool.__new__(client.ClusterPool)
    pool.address, pool.warnings = "tcp://scheduler:8786", set()
    pool._check_workers(infos, require_isolation=False)
    assert f"worker tcp://10.0.0.2:1: weaker isolation than this machine (off there: {strong})" in pool.warnings
    assert pool._usable("tcp://10.0.0.2:1")
    other = {"tcp://10.0.0.3:1": info_with(set(), judge_code="0123456789ab")}
    with pytest.raises(client.JudgeInputError, match="worker tcp://10.0.0.3:1 runs other judge code .*install the same"):
        pool._check_workers(infos | other, require_isolation=False)

    pool.warnings = set()
    pool._check_workers(infos, require_isolation=True)
    assert not pool._usable("tcp://10.0.0.2:1") and pool._usable("tcp://10.0.0.1:5")
    assert "not grading on 10.0.0.2: weaker isolation than this machine (--cluster-require-isolation)" in pool.warnings

    with pytest.raises(client.JudgeInputError, match="no worker of the cluster .* isolates tests as well"):
        pool._check_workers({"tcp://10.0.0.2:1": info_with({strong})}, require_isolation=True)


def test_unreachable_scheduler_is_one_line_and_exit_2(judge, monkeypatch):
    monkeypatch.setattr(client, "CONNECT_TIMEOUT", 1.0)
    code, out, err = judge("--problems", FIXTURE_PROBLEMS, "grade", SOLUTIONS / "accepted.py",
                           "--cluster", "tcp://127.0.0.1:9")
    assert code == 2 and "Traceback" not in err
    assert err.startswith("judge: error: cannot reach the Dask scheduler at tcp://127.0.0.1:9") and err.count("\n") == 1


def test_without_cluster_dask_is_never_imported(tmp_path):
    program = ("import sys; from tcjudge.cli import main; "
               f"code = main(['--problems', {str(FIXTURE_PROBLEMS)!r}, '--history', {str(tmp_path / 'h.sqlite')!r}, "
               f"'grade', {str(SOLUTIONS / 'accepted.py')!r}]); "
               "print(code, sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed', 'tcjudge.cluster')))")
    env = {key: value for key, value in os.environ.items() if key != "JUDGE_CLUSTER"}
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT, env=env, timeout=WAIT)
    assert done.stdout.splitlines()[-1] == "0 []", done.stderr


# -- splitting runs into tasks ------------------------------------------------------------------------

def test_runs_of_every_test_are_split_and_stopping_runs_are_not():
    from tcjudge.engine.pool import SolutionRun
    from tcjudge.problems.loader import load_problem

    problem = load_problem(FIXTURE_PROBLEMS / "adder")
    problem.tests = problem.tests * 10  # 40 tests
    every = SolutionRun(problem, SOLUTIONS / "accepted.py", problem.tests, stop_on_failure=False)
    for wanted in (1, 2, 3, 7, 100):
        chunks = client._chunks(every, wanted)
        assert [i for chunk in chunks for i in chunk] == list(range(40))
        assert len(chunks) <= max(1, wanted) and all(len(c) >= client.MIN_CHUNK for c in chunks[:-1])
    assert len(client._chunks(every, 2)) == 2
    stopping = SolutionRun(problem, SOLUTIONS / "accepted.py", problem.tests, stop_on_failure=True)
    assert client._chunks(stopping, 8) == [list(range(40))]


def test_without_dask_installed_cluster_is_one_line_and_exit_2(tmp_path):
    program = ("import sys; sys.modules['distributed'] = None; from tcjudge.cli import main; "  # import fails
               f"sys.exit(main(['--problems', {str(FIXTURE_PROBLEMS)!r}, '--history', {str(tmp_path / 'h.sqlite')!r}, "
               f"'grade', {str(SOLUTIONS / 'accepted.py')!r}, '--cluster', 'tcp://127.0.0.1:9']))")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT, timeout=WAIT)
    assert done.returncode == 2
    assert done.stderr == "judge: error: --cluster needs dask.distributed: pip install 'topcoder-judge[cluster]'\n"


# -- bundles -------------------------------------------------------------------------------------------

def test_a_bundle_another_worker_process_just_wrote_is_kept_not_set_aside(tmp_path, monkeypatch):
    # Two worker processes of one machine materialise the same solution at once: the one that finds no
    # bundle, writes its own and then meets the other's in place must leave it there (a zygote of the
    # other may be loading the file: setting it aside made that test "cannot read the file", a CE).
    solution = pack_file(SOLUTIONS / "wrong_answer.py")
    path = materialise(solution, "solutions", tmp_path)
    before = os.stat(path).st_ino
    checks = []

    def not_yet_there_at_first(folder, hashes, *rest):  # the other process renames its bundle in just after
        checks.append(folder)
        return len(checks) > 1 and really_verified(folder, hashes, *rest)

    really_verified = bundle.verified
    monkeypatch.setattr(bundle, "verified", not_yet_there_at_first)
    assert materialise(solution, "solutions", tmp_path) == path
    assert os.stat(path).st_ino == before, "the other process's bundle was set aside and replaced"
    assert not [entry for entry in (tmp_path / "solutions").iterdir() if entry.name.startswith(".")]


def test_bundles_are_content_addressed_and_checked(tmp_path):
    problem = pack_folder(FIXTURE_PROBLEMS / "adder")
    assert problem["key"] == pack_folder(FIXTURE_PROBLEMS / "adder")["key"]
    folder = materialise(problem, "problems", tmp_path)
    assert folder.name == "adder" and (folder / "problem.yaml").read_bytes() == \
        (FIXTURE_PROBLEMS / "adder" / "problem.yaml").read_bytes()
    assert materialise(problem, "problems", tmp_path) == folder  # cached: written once

    solution = pack_file(SOLUTIONS / "accepted.py")
    path = materialise(solution, "solutions", tmp_path)
    assert path.name == "accepted.py" and path.read_bytes() == (SOLUTIONS / "accepted.py").read_bytes()

    changed = dict(solution, files={"accepted.py": b"class Adder: pass\n"})
    assert bundle.bundle_key(changed["name"], changed["files"]) != solution["key"]
    with pytest.raises(BundleError, match="does not match its key"):
        materialise(changed, "solutions", tmp_path)
    for bad in ("../escape.py", "/etc/passwd", "other/accepted.py"):
        files = {bad: b"x"}
        with pytest.raises(BundleError, match="bad path"):
            materialise({"key": bundle.bundle_key("accepted.py", files), "name": "accepted.py", "files": files},
                        "solutions", tmp_path)


@pytest.mark.parametrize("tamper", ["changed", "writable", "foreign"])
def test_a_bundle_found_on_disk_is_used_only_while_it_is_what_this_worker_wrote(tmp_path, tamper):
    """issue 22: a bundle cache entry was trusted as found. Planted under the real adder's key (by
    another user where the cache is shared, or changed on disk), tests that expect what a wrong
    solution returns gave it AC. Now an entry is used only while every file in it is owned by this
    user, writable by no one else, and hashes as the bundle says; else it is written again."""
    if tamper == "foreign" and os.geteuid() != 0:
        pytest.skip("giving files to another user needs root")
    real = pack_folder(FIXTURE_PROBLEMS / "adder")
    folder = materialise(real, "problems", tmp_path)
    shutil.rmtree(folder)
    shutil.copytree(TESTDATA / "cluster" / "planted" / "adder", folder)  # under the real key
    for path in [folder, *folder.rglob("*")]:
        if tamper == "writable":
            path.chmod(0o777 if path.is_dir() else 0o666)
        elif tamper == "foreign":
            os.chown(path, 65534, 65534)
    problem = load_problem(materialise(real, "problems", tmp_path))
    with Pool(1) as pool:
        result = pool.grade([SolutionRun(problem, SOLUTIONS / "wrong_answer.py", problem.tests, True)])[0]
    assert result.verdict is Verdict.WA, result.verdict
    for path in [folder, *folder.rglob("*")]:
        assert path.stat().st_uid == os.getuid() and not path.stat().st_mode & 0o022, path
    assert (folder / "tests" / "more.yaml").read_bytes() == (FIXTURE_PROBLEMS / "adder" / "tests" / "more.yaml").read_bytes()


def worker_profiling() -> bool:
    import dask

    return dask.config.get("distributed.worker.profile.enabled")


def test_judge_worker_starts_single_threaded_workers_without_profiling_and_removes_its_scratch(tmp_path):
    from distributed import Client

    scratch_parent = tmp_path / "scratch"
    scratch_parent.mkdir()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with local_cluster(nworkers=1, cache=tmp_path / "cache") as running:
        process = subprocess.Popen([sys.executable, str(ROOT / "judge.py"), "worker", running.address, "--processes",
                                    "2", "--scratch", str(scratch_parent)], env=env, cwd=tmp_path,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        try:
            with Client(running.address, timeout=WAIT) as dask_client:
                dask_client.wait_for_workers(3, timeout=WAIT)
                assert sorted(dask_client.nthreads().values()) == [1, 1, 1]
                assert set(dask_client.run(worker_profiling).values()) == {False}  # local_cluster's and judge worker's
            assert len(list(scratch_parent.iterdir())) == 1  # its scratch folder, while it runs
            process.send_signal(signal.SIGTERM)
            assert process.wait(WAIT) is not None
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    assert list(scratch_parent.iterdir()) == []
