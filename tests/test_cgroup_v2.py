"""cgroup v2, every way the judge is run: the root cgroup, a cgroup that holds other processes (a
session scope, a service), a delegated subtree, and none writable.

The first tests run anywhere: a fake cgroup v2 file system in a temp folder keeps the kernel's rules
that matter here ("no internal processes", controllers handed down, who may write). The real ones
run on a cgroup v2 host (platforms/vm.sh boots one in qemu in each layout, and says which in
$JUDGE_VM_CASE) and skip elsewhere, saying why.
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from tcjudge.engine import isolation
from tcjudge.engine.sandbox import cgroup
from tcjudge.engine.worker import Worker, remove_stale_cgroups

from .conftest import ROOT, zygote_pids

ME = os.getpid()


class FakeV2:
    """A cgroup v2 hierarchy in a folder: control files are plain files, the kernel's rules are here."""

    def __init__(self, root: Path, controllers: str = "cpu io memory pids"):
        self.root = str(root)
        self.where: dict[int, str] = {}  # pid -> its cgroup
        self.denied: set[str] = set()  # cgroups whose files this user may not write
        self.delegated: set[str] = set()  # cgroups delegated to this user (systemd's Delegate=yes)
        self.after_move = None  # called once after a process is moved (a fork meanwhile)
        for name, value in (("cgroup.controllers", controllers), ("cgroup.subtree_control", "")):
            (root / name).write_text(value)

    def cgroup(self, path: str, *pids: int, enabled: bool = False) -> str:
        """Make cgroup `path` (and its parents, each handing its controllers down), with `pids` in it."""
        folder = self.root
        for part in path.strip("/").split("/"):
            self._enable(folder)
            folder = os.path.join(folder, part)
            if not os.path.isdir(folder):
                self.mkdir(folder)
        self.where.update(dict.fromkeys(pids, folder))
        if enabled:
            self._enable(folder)
        return folder

    def _enable(self, folder: str) -> None:
        Path(folder, "cgroup.subtree_control").write_text(Path(folder, "cgroup.controllers").read_text())

    def read(self, path: str) -> str:
        folder, name = os.path.split(path)
        if name == "cgroup.procs":
            return "".join(f"{pid}\n" for pid, where in sorted(self.where.items()) if where == folder)
        return Path(path).read_text()

    def write(self, folder: str, name: str, value, optional: bool = False) -> None:
        if folder in self.denied:
            raise PermissionError(errno.EACCES, "Permission denied")
        inner = folder != self.root
        if name == "cgroup.subtree_control":
            if inner and self.read(os.path.join(folder, "cgroup.procs")):
                raise OSError(errno.EBUSY, "Device or resource busy")
            wanted = {word[1:] for word in str(value).split()}
            if not wanted <= set(Path(folder, "cgroup.controllers").read_text().split()):
                raise OSError(errno.ENOENT, "No such file or directory")
            now = set(Path(folder, name).read_text().split())
            Path(folder, name).write_text(" ".join(sorted(now | wanted)))
        elif name == "cgroup.procs":
            if inner and Path(folder, "cgroup.subtree_control").read_text().split():
                raise OSError(errno.EBUSY, "Device or resource busy")
            if int(value) not in self.where:
                raise ProcessLookupError(errno.ESRCH, "No such process")
            self.where[int(value)] = folder
            hook, self.after_move = self.after_move, None
            if hook:
                hook()
        else:
            Path(folder, name).write_text(str(value))

    def mkdir(self, path: str) -> None:
        os.mkdir(path)
        Path(path, "cgroup.controllers").write_text(Path(os.path.dirname(path), "cgroup.subtree_control").read_text())
        Path(path, "cgroup.subtree_control").write_text("")

    def rmdir(self, path: str) -> bool:
        if any(where == path for where in self.where.values()) or any(e.is_dir() for e in os.scandir(path)):
            return False
        for entry in os.scandir(path):
            os.unlink(entry.path)
        os.rmdir(path)
        return True


@pytest.fixture
def fake(tmp_path, monkeypatch):
    """A fake v2 hierarchy, this process in its root cgroup (tests move it with fake.cgroup)."""
    fs = FakeV2(tmp_path)
    fs.where[ME] = fs.root
    monkeypatch.setattr(cgroup, "_read", fs.read)
    monkeypatch.setattr(cgroup, "_write", fs.write)
    monkeypatch.setattr(cgroup, "_mkdir", fs.mkdir)
    monkeypatch.setattr(cgroup, "_rmdir", fs.rmdir)
    monkeypatch.setattr(cgroup, "_delegated", lambda folder: folder in fs.delegated)
    monkeypatch.setattr(cgroup, "_mounts", lambda: {"": fs.root})
    monkeypatch.setattr(cgroup, "_own_path", lambda controller: fs.where[ME][len(fs.root):] or "/")
    return fs


def opened(name: str = "judge-1-test") -> cgroup.Cgroups:
    cgroups, why = cgroup.Cgroups.open(name)
    assert cgroups is not None, why
    return cgroups


def test_in_the_root_cgroup_the_folders_are_made_there(fake):
    cgroups = opened()
    base = os.path.join(fake.root, "judge-1-test")
    assert cgroups.bases == {"pids": base, "memory": base} and fake.where[ME] == fake.root
    assert "the root cgroup" in cgroups.description
    assert fake.read(os.path.join(base, "cgroup.subtree_control")).split() == ["memory", "pids"]
    slot = cgroups.create(100 << 20)
    folder = os.path.join(base, "t1")
    assert slot.dirs == (folder,)
    assert [fake.read(os.path.join(folder, name)) for name in ("memory.max", "memory.swap.max", "pids.max")] == [
        str((100 << 20) + cgroup.HEADROOM), "0", str(cgroup.MAX_TASKS)]
    cgroups.close()
    assert not os.path.exists(base)


def test_in_a_session_scope_its_processes_go_to_a_leaf_and_later_judges_make_theirs_beside_it(fake):
    shell = 10_000_001
    scope = fake.cgroup("/user.slice/user-0.slice/session-1.scope", ME, shell)
    cgroups = opened()
    leaf = os.path.join(scope, cgroup.LEAF)
    assert fake.where[ME] == fake.where[shell] == leaf  # the login shell too: the scope then holds none
    assert cgroups.bases["pids"] == os.path.join(scope, "judge-1-test")
    assert "root made a leaf for its processes" in cgroups.description
    cgroups.close()
    again = opened("judge-2-test")  # from the leaf (doctor's second probe, the next run)
    assert again.bases["pids"] == os.path.join(scope, "judge-2-test") and again.description == cgroups.description
    again.close()
    assert sorted(os.listdir(scope)) == sorted(["cgroup.controllers", "cgroup.subtree_control", cgroup.LEAF])


def test_a_process_started_in_the_scope_while_they_move_is_moved_too(fake):
    scope = fake.cgroup("/system.slice/judge.service", ME)
    fake.after_move = lambda: fake.where.update({10_000_002: scope})  # forked meanwhile
    opened().close()
    assert fake.where[10_000_002] == os.path.join(scope, cgroup.LEAF)


def test_in_a_delegated_scope_doctor_says_it_is_one(fake):
    scope = fake.cgroup("/user.slice/user-1000.slice/user@1000.service/app.slice/run-1.scope", ME)
    fake.delegated.add(scope)
    cgroups = opened()
    assert cgroups.bases["pids"] == os.path.join(scope, "judge-1-test") and fake.where[ME] == os.path.join(scope, cgroup.LEAF)
    assert f"a cgroup delegated to uid {os.getuid()}, its processes moved into its leaf {cgroup.LEAF}" in cgroups.description
    cgroups.close()


def test_a_cgroup_not_handed_the_memory_controller_says_so(fake):
    fake.cgroup("/a.slice/b.scope", ME)
    Path(fake.root, "a.slice", "cgroup.subtree_control").write_text("pids")
    Path(fake.root, "a.slice", "b.scope", "cgroup.controllers").write_text("pids")
    cgroups, why = cgroup.Cgroups.open("judge-1-test")
    assert cgroups is None and "hands it no memory controller (cgroup.controllers: pids)" in why


def test_a_user_with_no_writable_cgroup_is_told_the_command_that_gives_one(fake, monkeypatch):
    scope = fake.cgroup("/user.slice/user-1000.slice/session-2.scope", ME, 10_000_003)
    fake.denied.add(scope)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr(os, "getuid", lambda: 1000)
    cgroups, why = cgroup.Cgroups.open("judge-1-test")
    assert cgroups is None
    assert f"cgroup v2 at {scope}: not writable by uid 1000" in why and cgroup.DELEGATE in why
    active, detail = cgroup.probe()
    assert not active and cgroup.DELEGATE in detail and "Verdicts come from the rlimits" in detail


def test_folders_of_killed_judges_are_swept_from_the_home_even_from_its_leaf(fake):
    scope = fake.cgroup("/user.slice/user-0.slice/session-1.scope", ME)
    cgroups = opened(f"judge-{ME}")
    dead = opened("judge-999999999")  # a zygote killed before it could clean up, a test cgroup left
    dead.create(1 << 20)
    assert fake.where[ME].endswith(cgroup.LEAF) and cgroup.homes() == [scope]
    assert cgroup.sweep(alive=lambda pid: pid == ME) == 0
    assert not os.path.exists(os.path.join(scope, "judge-999999999"))
    assert os.path.isdir(cgroups.bases["pids"]) and os.path.isdir(os.path.join(scope, cgroup.LEAF))
    cgroups.close()


def test_doctor_table_and_its_warning_come_from_one_probe(monkeypatch, tmp_path):
    monkeypatch.setattr(isolation, "_kept_path", lambda: tmp_path / "kept")
    calls = []
    monkeypatch.setattr(cgroup, "probe", lambda: calls.append(1) or (len(calls) == 1, f"probe {len(calls)}"))
    layers = isolation.all_layers()
    report, complete = isolation.doctor_report(layers)
    warning = isolation.probed_layers_warning("a key", layers)
    assert len(calls) == 1 and "bounds (" not in (warning or "") and "probe 1" in report


# --- on a real cgroup v2 host (platforms/vm.sh) --------------------------------------------------


def _v2_only() -> str | None:
    """Why the real tests cannot run here, or None."""
    mounts = cgroup._mounts()
    if "" not in mounts or any(c in mounts for c in cgroup.CONTROLLERS):
        return f"not a cgroup v2 host (its cgroup hierarchies: {sorted(mounts) or 'none'}; platforms/vm.sh boots one)"
    return None


NOT_V2 = _v2_only()
CASE = os.environ.get("JUDGE_VM_CASE", "")  # set by platforms/vm-guest.sh
real_v2 = pytest.mark.skipif(NOT_V2 is not None, reason=NOT_V2 or "")


def _usable() -> tuple[bool, str]:
    cgroups, why = cgroup.Cgroups.open(f"{cgroup.PREFIX}{ME}-v2")
    if cgroups is not None:
        cgroups.close()
    return cgroups is not None, why


@real_v2
def test_the_judge_has_a_cgroup_exactly_where_one_can_be_had(monkeypatch, tmp_path):
    monkeypatch.setattr(isolation, "_kept_path", lambda: tmp_path / "kept")
    usable, why = _usable()
    if CASE:
        assert usable == (CASE != "user-none"), why
    elif not usable:
        pytest.skip(f"this user has no writable cgroup v2 here: {why}")
    layers = isolation.all_layers()  # what doctor prints (its compilers' table aside: slow when emulated)
    table, _ = isolation.doctor_report(layers)
    warning = isolation.probed_layers_warning("a key", layers) or ""
    row = next(line for line in table.splitlines() if line.startswith("bounds"))
    assert row.split()[1] == ("on" if usable else "OFF"), table
    assert ("bounds (" in warning) == (not usable), warning
    if not usable:
        assert cgroup.DELEGATE in warning or os.geteuid() == 0


SLEEPER = """import time
class Adder:
    def add(self, values, factor):
        time.sleep(4)
        return sum(values) * factor
"""


def _test_child_cgroup(zygote: int, deadline: float) -> str:
    """The cgroup folder of the zygote's child once it has joined its test's cgroup."""
    while time.monotonic() < deadline:
        for child in psutil.Process(zygote).children():
            try:
                path = Path(f"/proc/{child.pid}/cgroup").read_text().split("::", 1)[1].strip()
            except (OSError, IndexError):
                continue
            if os.path.basename(path).startswith("t"):
                return os.path.join(cgroup._mounts()[""], path.lstrip("/"))
        time.sleep(0.05)
    raise AssertionError("no test child joined a cgroup")


@real_v2
def test_each_test_runs_in_a_cgroup_of_its_limits_removed_after(tmp_path):
    usable, why = _usable()
    if not usable:
        pytest.skip(f"no writable cgroup v2 here: {why}")
    solution = tmp_path / "sleeper.py"
    solution.write_text(SLEEPER)
    worker = Worker()
    try:
        worker.load(("adder",), solution, "Adder", "add", 10, 100, check=False)
        facts = {}
        running = threading.Thread(target=lambda: facts.update(run=worker.run(((1, 2), 3))))
        running.start()
        folder = _test_child_cgroup(worker.process.pid, time.monotonic() + 60)
        limits = [Path(folder, name).read_text().strip() for name in ("memory.max", "memory.swap.max", "pids.max")]
        assert b"usage_usec" in Path(folder, "cpu.stat").read_bytes()  # a process tree's CPU (engine/tree.py)
        running.join()
        assert limits == [str((100 << 20) + cgroup.HEADROOM), "0", str(cgroup.MAX_TASKS)]
        assert facts["run"].ended == "returned", facts
    finally:
        worker.close()
    assert not os.path.exists(os.path.dirname(folder)), "the zygote's folder outlived it"


KILLED_JUDGE = """if True:
    import sys, threading
    from pathlib import Path
    from tcjudge.engine.worker import Worker
    worker = Worker()
    worker.load(("adder",), Path(sys.argv[1]), "Adder", "add", 30, 100, check=False)
    print(worker.process.pid, flush=True)
    worker.run(((1, 2), 3))
"""


@real_v2
def test_the_cgroups_of_a_judge_killed_with_sigkill_are_removed_by_the_next_run(tmp_path):
    usable, why = _usable()
    if not usable:
        pytest.skip(f"no writable cgroup v2 here: {why}")
    solution = tmp_path / "sleeper.py"
    solution.write_text(SLEEPER.replace("sleep(4)", "sleep(60)"))
    judge = subprocess.Popen([sys.executable, "-c", KILLED_JUDGE, solution], cwd=ROOT, stdout=subprocess.PIPE,
                             text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        zygote = int(judge.stdout.readline())
        folder = os.path.dirname(_test_child_cgroup(zygote, time.monotonic() + 90))
    finally:
        judge.send_signal(signal.SIGKILL)
        judge.wait()
    deadline = time.monotonic() + 10  # the zygote dies with the judge, its test's child with it
    while (psutil.pid_exists(zygote) or "populated 1" in Path(folder, "cgroup.events").read_text()) \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    assert os.path.basename(folder) == f"{cgroup.PREFIX}{zygote}" and os.path.isdir(folder)
    worker = Worker()  # the next run's zygote sweeps what the killed one left as it starts
    try:
        assert not os.path.exists(folder)
    finally:
        worker.close()
    remove_stale_cgroups()
    assert not zygote_pids()
