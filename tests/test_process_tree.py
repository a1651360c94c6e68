"""Issue 46: a submission may be a small process tree where the package asks for it (its include/ brings
the entry point, a runner that may fork the submission's code): the sandbox's processes profile, and
the bounds the engine gives such a tree (docs/security.md, "Process trees")."""

from __future__ import annotations

import errno
import os
import re
import shutil
import signal
import time
from pathlib import Path

import psutil
import pytest

from tcjudge.engine import sandbox, tree
from tcjudge.engine.sandbox import _seccomp, cgroup
from tcjudge.engine.watch import process_cpu_clock
from tcjudge.engine.worker import Worker, remove_stale_cgroups
from tcjudge.languages import CPP
from tcjudge.problems.loader import load_problem

from .conftest import TESTDATA
from .test_sandbox_layers import bpf_run


@pytest.mark.parametrize("arch", list(_seccomp.SYSCALLS))
def test_the_processes_profile_allows_a_tree_and_nothing_more(arch):
    """fork and a process's clone pass (EPERM before, under every profile); the tree keeps to its
    process group and to no namespace; signals reach the tree only under Landlock's scope."""
    A, nr = _seccomp.AUDIT_ARCH[arch], _seccomp.SYSCALLS[arch]
    ALLOW, E = _seccomp.RET_ALLOW, _seccomp.errno_action
    for base in (sandbox.PYTHON, sandbox.NATIVE):
        tree = _seccomp.build_program(arch, base._replace(processes=True), scoped=True)
        strict = _seccomp.build_program(arch, base)
        for flags in (signal.SIGCHLD, 0x01200011):  # a bare fork's clone, glibc's fork
            assert bpf_run(strict, A, nr["clone"], (flags,)) == E(errno.EPERM)
            assert bpf_run(tree, A, nr["clone"], (flags,)) == ALLOW
        assert bpf_run(tree, A, nr["clone"], (0x003D0F00,)) == ALLOW  # threads still
        for flags in (signal.SIGCHLD | _seccomp.CLONE_PARENT, signal.SIGCHLD | _seccomp.CLONE_NEWUSER,
                      signal.SIGCHLD | _seccomp.CLONE_NEWPID):
            assert bpf_run(tree, A, nr["clone"], (flags,)) == E(errno.EPERM), hex(flags)
        for name in ("fork", "vfork"):
            if name in nr:  # (x86_64 only)
                assert bpf_run(strict, A, nr[name]) == E(errno.EPERM)
                assert bpf_run(tree, A, nr[name]) == ALLOW
        for name in ("setsid", "setpgid"):
            assert bpf_run(tree, A, nr[name]) == E(errno.EPERM)
        assert bpf_run(tree, A, nr["clone3"]) == E(errno.ENOSYS)
        assert bpf_run(tree, A, nr["execve"], (0x5A5A_1234_5680,)) == E(errno.EACCES)  # no other program
        for call, args in (("kill", (4243, 9)), ("tgkill", (4243, 4243, 6))):  # another process of the tree
            assert bpf_run(tree, A, nr[call], args) == ALLOW
            assert bpf_run(strict, A, nr[call], args) == E(errno.EPERM)
        for pid in (0, -1, -4242):  # a group, or every process: never
            assert bpf_run(tree, A, nr["kill"], (pid, 9)) == E(errno.EPERM), pid
    unscoped = _seccomp.build_program(arch, sandbox.PYTHON._replace(processes=True), scoped=False)
    assert bpf_run(unscoped, A, nr["kill"], (4242, 9)) == ALLOW  # itself only, without Landlock's scope
    assert bpf_run(unscoped, A, nr["kill"], (4243, 9)) == E(errno.EPERM)
    assert bpf_run(unscoped, A, nr["clone"], (signal.SIGCHLD,)) == ALLOW


FORKRUNNER = TESTDATA / "kattis" / "forkrunner"


@pytest.fixture
def cpython(monkeypatch):
    """A Kattis package's Python 3 run by CPython in the zygote's child, where PyPy 3 would run it."""
    try:
        from tcjudge.languages.pypy import PYPY
    except ImportError:  # (no PyPy language: CPython runs it anyway)
        return
    monkeypatch.setattr(PYPY, "toolchain", lambda: None)


def _package(tmp_path: Path, keep: str) -> Path:
    """A copy of forkrunner with only the submissions under `keep` (a folder of submissions/)."""
    problems = tmp_path / "problems"
    shutil.copytree(FORKRUNNER, problems / "forkrunner")
    for folder in (problems / "forkrunner" / "submissions").iterdir():
        if folder.name != keep:
            shutil.rmtree(folder)
    return problems


@pytest.mark.parametrize("python", ["default", "cpython"])
def test_a_runner_that_forks_the_submission_is_graded(judge, tmp_path, request, python):
    """include/cpp/runner.cpp and include/python3/main.py fork the submission's add() into a child and
    talk to it through pipes: AC (RE before: the sandbox denied the fork). The Python child ends by
    sys.exit(0): under CPython it exits as python3's would and does not end the test (its line on the
    result channel would have ended it before the parent had printed)."""
    if CPP.toolchain() is None:
        pytest.skip("g++ is not installed here")
    if python == "cpython":
        request.getfixturevalue("cpython")
    code, out, err = judge("--problems", _package(tmp_path, "accepted"), "check")
    assert code == 0 and "2 of 2 solutions got their expected verdict" in out, out + err


def test_a_fork_bomb_under_the_tree_is_contained(judge, tmp_path):
    """A fork bomb in the runner's child, C++ and Python: each tree stops at its process cap, its
    CPU (all its processes') reaches the limit: TLE, not RE; none of its processes outlives the test
    (the C++ bomb's are named forkbomb46); the judge then grades the accepted ones in the same run."""
    if CPP.toolchain() is None:
        pytest.skip("g++ is not installed here")
    problems = tmp_path / "problems"
    shutil.copytree(FORKRUNNER, problems / "forkrunner")
    code, out, err = judge("--problems", problems, "check", "-j", "1")
    assert code == 0 and "4 of 4 solutions got their expected verdict" in out, out + err
    assert re.search(r"ok[ \t]+\S*/time_limit_exceeded/bomb\.cpp: TLE", out), out
    assert re.search(r"ok[ \t]+\S*/time_limit_exceeded/bomb: TLE", out), out
    assert not _bomb()


def test_a_tree_is_given_only_in_a_cgroup():
    """pids.max bounds it there, and what outlives a killed zygote is found there; without one (RLIMIT_NPROC
    counts per uid and never binds root, RLIMIT_DATA per process), fork stays denied."""
    assert tree.bounded(True, object()) and not tree.bounded(True, None) and not tree.bounded(False, object())


@pytest.mark.skipif(not cgroup.probe()[0], reason="no writable cgroup here: no process tree is given")
def test_a_tree_outliving_its_killed_zygote_is_killed_by_the_sweep(tmp_path):
    """The judge kills a zygote that does not end within a second of being asked to (one in the middle
    of a test sent ahead): only the tree's first process has the parent-death signal, and the C++ bomb's
    others, reparented to init, ran on for good (64 of them after a check of forkrunner); the sweep of
    the dead zygote's cgroups, when its pool closes, kills them."""
    if CPP.toolchain() is None:
        pytest.skip("g++ is not installed here")
    shutil.copytree(FORKRUNNER, tmp_path / "forkrunner")
    problem = load_problem(tmp_path / "forkrunner")
    bomb = tmp_path / "forkrunner" / "submissions" / "time_limit_exceeded" / "bomb.cpp"
    worker = Worker()
    try:
        worker.load(("bomb",), bomb, None, None, 60, 256, check=False, mode="stdin",
                    program=CPP.program(bomb, problem, 1 << 18), fields=CPP.load_fields(bomb, problem, 1 << 18))
        worker.send_test(data=b"1\n1 2\n")
        for _ in range(6000):  # until the bomb runs (each look 10 ms)
            if len(_bomb()) >= 8:
                break
            time.sleep(0.01)
        assert _bomb(), "the bomb never ran"
        worker.process.kill()
        worker.process.wait()
        remove_stale_cgroups(patience=5.0)
        assert not _bomb()
    finally:
        for process in _bomb():
            process.kill()
        worker.close()


def _bomb() -> list[psutil.Process]:
    """The C++ bomb's processes that still run (a killed one may show as a zombie until it is reaped)."""
    return [process for process in psutil.process_iter(["name", "status"])
            if process.info["name"] == "forkbomb46" and process.info["status"] != psutil.STATUS_ZOMBIE]


def test_without_a_cgroup_the_trees_cpu_is_read_from_proc():
    """A grandchild's CPU counts while it runs and once its parent has reaped it (the first process's
    clock alone would show neither)."""
    ready_r, ready_w = os.pipe()
    leader = os.fork()
    if leader == 0:  # pragma: no cover - the child
        os.close(ready_r)
        worker = os.fork()
        if worker == 0:
            end = time.process_time() + 0.3
            while time.process_time() < end:
                pass
            os.write(ready_w, b"1")
            time.sleep(30)
            os._exit(0)
        os.waitpid(worker, 0)  # (the test kills it)
        os.write(ready_w, b"2")
        time.sleep(30)
        os._exit(0)
    os.close(ready_w)
    try:
        watched = tree.Tree(leader, process_cpu_clock(leader))
        assert os.read(ready_r, 1) == b"1"
        assert len(watched.pids()) == 2 and watched.cpu() >= 0.25
        worker = watched.pids()[1]
        os.kill(worker, signal.SIGKILL)
        assert os.read(ready_r, 1) == b"2"  # reaped by its parent: in the leader's children's times
        assert watched.pids() == [leader] and tree.Tree(leader, process_cpu_clock(leader)).cpu() >= 0.25
    finally:
        os.kill(leader, signal.SIGKILL)
        os.waitpid(leader, 0)


@pytest.mark.parametrize("version, text, seconds", [(2, b"usage_usec 1500000\nuser_usec 1000000\n", 1.5),
                                                     (1, b"2500000000\n", 2.5)])
def test_a_cgroups_cpu_account(tmp_path, version, text, seconds):
    """v2's cpu.stat (there whether the cpu controller is on or not), v1's cpuacct.usage (nanoseconds),
    less what was counted before the current child (a recycled cgroup)."""
    (tmp_path / "usage").write_bytes(text)
    slot = cgroup.Slot((str(tmp_path),), str(tmp_path), 0, version, str(tmp_path / "usage"))
    cgroups = cgroup.Cgroups(version, {"pids": str(tmp_path), "memory": str(tmp_path)})
    assert cgroups.cpu_seconds(slot) == seconds
    slot.cpu_base = 1.0
    assert cgroups.cpu_seconds(slot) == seconds - 1.0
    assert cgroups.cpu_seconds(cgroup.Slot((str(tmp_path),), str(tmp_path), 0, version)) is None


def test_only_a_trees_child_joins_the_cpu_account(tmp_path):
    """v1's cpuacct folder is joined by a tree's child alone (a join is a write of every test); the
    pids and memory folders by every child (before: every child joined all three)."""
    dirs = tuple(str(tmp_path / name) for name in ("pids", "memory", "cpuacct"))
    slot = cgroup.Slot(dirs, dirs[1], 0, 1, f"{dirs[2]}/cpuacct.usage", dirs[2])
    assert slot.tree_joins == tuple(os.fsencode(f"{folder}/tasks") for folder in dirs)
    assert slot.joins == slot.tree_joins[:2]
    v2 = cgroup.Slot((dirs[0],), dirs[0], 0, 2, f"{dirs[0]}/cpu.stat")
    assert v2.joins == v2.tree_joins == (os.fsencode(f"{dirs[0]}/cgroup.procs"),)
