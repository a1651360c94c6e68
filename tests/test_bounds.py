"""Hard per-test bounds while a test runs: tasks, memory of every kind, CPU parallelism (cgroups
where the judge may use them, else RLIMIT_NPROC), and the cgroups never outlive their zygote."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time

import pytest

from tcjudge.engine.pool import Pool, SolutionRun
from tcjudge.engine.worker import Worker
from tcjudge.engine.sandbox import cgroup
from tcjudge.problems.loader import load_problem

from .conftest import FIXTURE_PROBLEMS, ROOT, TESTDATA, expected_verdict, zygote_pids

CPP_DATA_EXTRA_MIB = 32  # tcjudge/languages/cpp.py: a C++ program's RLIMIT_DATA share over the limit
CGROUPS, WHY = cgroup.Cgroups.open(f"{cgroup.PREFIX}{os.getpid()}-test")
needs_cgroups = pytest.mark.skipif(CGROUPS is None, reason=f"no writable cgroups here: {WHY}")


def teardown_module():
    if CGROUPS is not None:
        CGROUPS.close()


def in_test_cgroup(memory_bytes: int, work) -> tuple[int, cgroup.Slot, str]:
    """Run `work()` in a forked child inside a fresh test cgroup: (wait status, the slot, what it returned)."""
    slot = CGROUPS.create(memory_bytes)
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            CGROUPS.join(slot.joins)
            os.write(write_fd, str(work()).encode())
            code = 0
        finally:
            os._exit(code)
    os.close(write_fd)
    answer = os.read(read_fd, 100).decode()
    os.close(read_fd)
    _, status = os.waitpid(pid, 0)
    return status, slot, answer


@needs_cgroups
def test_memory_of_any_kind_is_bounded_while_it_runs():
    def hog():
        chunks = []
        for _ in range(400):  # 400 MiB, far past 8 MiB + headroom
            chunks.append(bytearray(1 << 20))
        return len(chunks)

    status, slot, answer = in_test_cgroup(8 << 20, hog)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == 9, (status, answer)
    assert CGROUPS.oom_killed(slot)
    assert cgroup.Cgroups.remove(slot)


@needs_cgroups
def test_tasks_are_bounded():
    def spawn():
        threading.stack_size(32 * 1024)
        event, started = threading.Event(), 0
        try:
            for _ in range(500):
                threading.Thread(target=event.wait, daemon=True).start()
                started += 1
        except RuntimeError:
            pass
        event.set()
        return started

    status, slot, answer = in_test_cgroup(64 << 20, spawn)
    assert os.WIFEXITED(status) and int(answer) < cgroup.MAX_TASKS
    assert not CGROUPS.oom_killed(slot)
    time.sleep(0.05)
    assert cgroup.Cgroups.remove(slot)


@needs_cgroups
def test_grading_leaves_no_cgroup_behind():
    problem = load_problem(FIXTURE_PROBLEMS / "adder")
    zygotes: set[int] = set()

    def seen(run, index, result):
        zygotes.update(zygote_pids())

    with Pool(2) as pool:
        [result] = pool.grade([SolutionRun(problem, TESTDATA / "solutions" / "accepted.py", problem.tests, False)],
                              on_test=seen)
    assert str(result.verdict) == "AC" and zygotes
    for home in cgroup.homes():
        left = [f"{cgroup.PREFIX}{pid}" for pid in zygotes if os.path.exists(os.path.join(home, f"{cgroup.PREFIX}{pid}"))]
        assert left == [], f"cgroups of ended zygotes left in {home}"


def test_doctor_says_what_bounds_a_test(judge):
    code, out, _ = judge("doctor")
    line = next(line for line in out.splitlines() if line.startswith("bounds"))
    assert line.split()[1] == ("on" if CGROUPS is not None else "OFF"), line
    assert line.split()[2].startswith("cgroup" if CGROUPS is not None else "no"), line


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one CPU here: nothing to bound")
def test_cpu_parallelism_is_one_core(tmp_path):
    # Pinned to one CPU: threads add CPU time (which the limit counts), never cores; and the pin holds.
    pinned = tmp_path / "pinned.py"
    pinned.write_text(
        "import os\n"
        "class Adder:\n"
        "    def add(self, values, factor):\n"
        "        try:\n"
        "            os.sched_setaffinity(0, range(os.cpu_count()))\n"
        "            widened = 1\n"
        "        except OSError:\n"
        "            widened = 0\n"
        "        return 10 * len(os.sched_getaffinity(0)) + widened\n")
    worker = Worker()
    try:
        worker.load(("pinned",), pinned, "Adder", "add", 2, 256, check=False)
        value = json.loads(worker.run(((1,), 1)).report)["value"]
    finally:
        worker.close()
    assert value == 10, f"{value // 10} CPUs, widened: {bool(value % 10)}"


# Grades testdata/memory/ in a process of its own (so that it can be started without cgroups) and
# says what bounded it: the figures the documented bounds are made of, and each solution's peak.
GRADE_MEMORY = """if True:
    import json, sys
    from pathlib import Path
    from tcjudge.engine.pool import Pool, SolutionRun
    from tcjudge.engine.sandbox import cgroup
    from tcjudge.engine.worker import Worker
    from tcjudge.problems.loader import load_problem

    zygote = Worker()
    with open(f"/proc/{zygote.process.pid}/status") as handle:
        status = {key: int(value.split()[0]) / 1024 for key, _, value in (line.partition(":") for line in handle)
                  if key in ("VmRSS", "VmData")}
    zygote.close()
    problem = load_problem(sys.argv[1])
    runs = [SolutionRun(problem, Path(path), problem.tests[:1], True) for path in sys.argv[2:]]
    with Pool(1) as pool:
        results = pool.grade(runs)
    print(json.dumps({"cgroups": cgroup.probe()[1].startswith("cgroup v"), "zygote": status,
                      "peaks": {r.solution.name: [str(r.verdict), r.tests[0].memory_mib] for r in results}}))
"""
MEMORY_FIXTURES = sorted((TESTDATA / "memory").glob("*"))
HIDE_CGROUPS = ["unshare", "--mount", "sh", "-c", 'mount -t tmpfs none /sys/fs/cgroup && exec "$@"', "sh"]


def test_the_documented_headroom_is_the_enforced_one():
    assert f"memory limit + {cgroup.HEADROOM >> 20} MiB" in (ROOT / "docs" / "security.md").read_text()


@pytest.mark.parametrize("with_cgroups", [True, False], ids=["cgroups", "rlimits-only"])
def test_memory_past_the_limit_is_mle_within_the_documented_bound(with_cgroups):
    """docs/security.md: with a memory cgroup, a test is charged at most the limit + HEADROOM (its
    recorded peak, resident memory, also counts the pages it shares with its zygote: at most the
    zygote's resident size); without one, its data limit and its stack's limit (the memory limit)
    bound it (and, for Python, the zygote's data, which RLIMIT_DATA already counts). Each fixture
    gets its declared verdict: MLE, but stack_and_heap.py's recursion ends in a RecursionError from
    Python 3.12 (the interpreter's C budget, before the stack fills): RE there, within the bound too."""
    if with_cgroups and CGROUPS is None:
        pytest.skip(f"no writable cgroups here: {WHY}")
    prefix = []
    if not with_cgroups and CGROUPS is not None:
        if os.geteuid() != 0 or not shutil.which("unshare"):
            pytest.skip("hiding the cgroups from a judge that may use them needs root (a mount namespace)")
        prefix = HIDE_CGROUPS
    problem = FIXTURE_PROBLEMS / "adder"
    done = subprocess.run([*prefix, sys.executable, "-c", GRADE_MEMORY, problem, *MEMORY_FIXTURES], cwd=ROOT,
                          capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr[-2000:]
    measured = json.loads(done.stdout)
    assert measured["cgroups"] is with_cgroups
    limit, zygote = load_problem(problem).memory_limit, measured["zygote"]
    for name, (verdict, peak) in measured["peaks"].items():
        if with_cgroups:
            bound = limit + (cgroup.HEADROOM >> 20) + zygote["VmRSS"]
        elif name.endswith(".py"):
            bound = zygote["VmData"] + limit + limit + zygote["VmRSS"]
        else:  # a compiled program: RLIMIT_DATA (the limit + the runtime's share) and the stack
            bound = limit + CPP_DATA_EXTRA_MIB + limit + zygote["VmRSS"]
        expected = expected_verdict(TESTDATA / "memory" / name)
        assert verdict == expected and peak <= bound, (name, verdict, expected, peak, bound, zygote)
