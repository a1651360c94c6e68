"""Per-test cgroups: hard bounds on tasks and on memory of every kind, while a test runs.

rlimits bound one process's data segment and CPU time; they do not see stack-like mappings, page
tables, pipe buffers or other kernel memory, and RLIMIT_NPROC counts a whole uid. A cgroup bounds
everything its processes are charged for. Each test's child gets its own cgroup, created by the
zygote when it forks the child (the spare is forked ahead of its test, so this is off the test's
critical path) beneath the zygote's own cgroup, joined by the child before anything else, and
removed once the child is reaped:

    pids.max                    MAX_TASKS (threads included)
    memory.max / limit_in_bytes the memory limit plus HEADROOM (rlimits say MLE first as a rule;
                                this is the wall behind them), no swap
    cpu.stat / cpuacct.usage    read only: the CPU time of all its processes, for a test that may be
                                a tree (engine/tree.py); v1: where the cpuacct hierarchy is writable,
                                joined by a tree's child alone

CPU parallelism is bounded without a cgroup: the zygote pins each child to one CPU (affinity,
which seccomp then forbids changing). The cpu controller's quota did the same at ~2 ms of wall
time per test on a loaded machine (group scheduling), for nothing more.

cgroup v2 is used where the judge's cgroup has the pids and memory controllers and this user may
write it (root, or a delegated subtree); else the v1 hierarchies of those controllers (cgroup v1 or
"hybrid" machines) where they are writable; else none (`Cgroups.open()` says why, and how to get one).

v2's "no internal processes" rule: a cgroup (the root cgroup apart) that hands controllers to its
children holds no process itself, and controllers cannot be handed down while it holds one. A
judge started in the root cgroup (a container with its own cgroup namespace, a VM without systemd)
makes its folders there. Started in a cgroup that holds processes (a systemd session scope beside its
login shell, a service's or a delegated scope's own cgroup), it first moves every process of that
cgroup (the judge's own, and whatever was beside them) into its leaf `judge-leaf`, then hands the
controllers down: the processes stay in the same subtree, under its limits and killed with it. A
later judge started from that leaf makes its folders beside it (`home()`):

    <home>/judge-leaf/          the processes that were in <home> (and later judges, their zygotes)
    <home>/judge-<zygote pid>/  pids and memory handed down; no process of its own
        t1, t2, ...             one test's child each
"""

from __future__ import annotations

import errno
import os
import signal

from ._sys import read_whole

MAX_TASKS = 64  # threads and processes of one test (a TopCoder solution needs one)
HEADROOM = 64 * 1024 * 1024  # bytes over the memory limit for kernel memory, page cache, the interpreter
CONTROLLERS = ("pids", "memory")
ACCOUNTING = "cpuacct"  # v1: the hierarchy that counts a cgroup's CPU time (v2: cpu.stat, always there)
# The cpu controller, for a compile's cgroup alone (Cgroups.open's `scheduling`): its processes, however many,
# share one process's weight on the CPUs (breaker 55c F2: four teams' compiles of 128 busy threads each held an
# honest submission 32-68 s, each thread weighing as much as its compile). Tests' cgroups are left out of it.
SCHEDULING = "cpu"


PREFIX = "judge-"  # a zygote's folder is judge-<its pid>; judge-<pid>-<what> for others (doctor, tests)
LEAF = "judge-leaf"  # v2: where the processes of a cgroup that hands controllers down go (never swept)
MOVE_TRIES = 20  # v2: moving a cgroup's processes into its leaf, again while new ones are forked into it
DELEGATE = "systemd-run --user --scope -p Delegate=yes"  # gives a user a cgroup of their own
KILL_ROUNDS = 100  # v1: passes over a dead zygote's test cgroup killing its processes (a tree that forks on)


class Slot:
    """The cgroup (one folder per hierarchy) of one child; reused for a later child once emptied."""

    __slots__ = ("dirs", "memory", "limit", "oom_base", "joins", "tree_joins", "cpu", "cpu_base")

    def __init__(self, dirs: tuple[str, ...], memory: str, limit: int, version: int = 2, cpu: str | None = None,
                 accounting: str | None = None):
        self.dirs = dirs
        # the files a child writes itself into (join): v1's "tasks" moves the writing thread without the
        # global threadgroup lock (whose RCU grace period made a move cost ~0.5 ms of wall time)
        self.tree_joins = tuple(os.fsencode(os.path.join(folder, "tasks" if version == 1 else "cgroup.procs"))
                                for folder in dirs)
        # a lone process's test leaves out v1's cpuacct folder (`accounting`): only a tree's CPU is read
        # from its account, and each join is a write of every test (about 23 us)
        self.joins = tuple(join for join, folder in zip(self.tree_joins, dirs) if folder != accounting)
        self.memory = memory  # the folder with the memory controller's files
        self.limit = limit
        self.oom_base = 0  # OOM kills counted before the current child (the counter cannot be reset)
        self.cpu = cpu  # the file that counts its processes' CPU time (None: no account here)
        self.cpu_base = 0.0  # seconds counted before the current child


class Cgroups:
    """The zygote's folder of test cgroups in one or more hierarchies (v2: one; v1: one per controller)."""

    def __init__(self, version: int, bases: dict[str, str], how: str = ""):
        self.version = version
        self.bases = bases  # controller -> this zygote's folder (v2: the same folder for both)
        self.how = how  # v2: what the judge's cgroup is (the root cgroup, delegated, a leaf made)
        self._next = 0
        self._free: list[Slot] = []  # emptied cgroups, reused: no mkdir/rmdir per test

    @property
    def description(self) -> str:
        how = f" ({self.how})" if self.how else ""
        return f"cgroup v{self.version} ({', '.join(CONTROLLERS)}), beneath {os.path.dirname(self.bases['pids'])}{how}"

    @classmethod
    def open(cls, name: str, scheduling: bool = False) -> tuple[Cgroups | None, str]:
        """Create this zygote's folder `name` beneath the judge's cgroup: (Cgroups, "") or (None, why
        not, and the command that would give one). `scheduling`: its cgroups are scheduling groups too
        (SCHEDULING), where this user may make them so."""
        mounts = _mounts()
        v2_reason = "no cgroup v2 mount"
        if "" in mounts:  # the unified (v2) hierarchy
            own = _own_folder(mounts[""])
            try:
                home, how = prepare_home(mounts[""], own)
                base = os.path.join(home, name)
                _mkdir(base)
                try:
                    _write(base, "cgroup.subtree_control", " ".join(f"+{c}" for c in CONTROLLERS))
                except OSError:
                    _rmdir(base)
                    raise
                bases = dict.fromkeys(CONTROLLERS, base)
                if scheduling and _hand_down(SCHEDULING, home, base):
                    bases[SCHEDULING] = base
                return cls(2, bases, how), ""
            except OSError as err:
                v2_reason = f"cgroup v2 at {own}: {_why_not(err)}"
        if not all(c in mounts for c in CONTROLLERS):
            return None, f"{v2_reason}; no cgroup v1 pids and memory hierarchies"
        bases: dict[str, str] = {}
        try:
            for controller in CONTROLLERS:
                base = os.path.join(mounts[controller], _own_path(controller).lstrip("/"), name)
                os.mkdir(base)
                bases[controller] = base
        except OSError as err:
            for base in bases.values():
                _rmdir(base)
            return None, f"{v2_reason}; cgroup v1: cannot create {err.filename}: {err.strerror}"
        try:  # the CPU account, where this hierarchy is there and writable (else a tree's is read from /proc)
            if ACCOUNTING in mounts and mounts[ACCOUNTING] not in (mounts["pids"], mounts["memory"]):
                base = os.path.join(mounts[ACCOUNTING], _own_path(ACCOUNTING).lstrip("/"), name)
                os.mkdir(base)
                bases[ACCOUNTING] = base
        except OSError:
            pass
        try:
            if scheduling and SCHEDULING in mounts and mounts[SCHEDULING] not in (mounts[c] for c in bases):
                base = os.path.join(mounts[SCHEDULING], _own_path(SCHEDULING).lstrip("/"), name)
                os.mkdir(base)
                bases[SCHEDULING] = base
        except OSError:
            pass
        return cls(1, bases), ""

    def create(self, memory_bytes: int, tasks: int = MAX_TASKS) -> Slot:
        """An empty cgroup with the limits of one test (in every hierarchy): a recycled one, or new.
        `tasks`: its pids.max, where it is made (a compile's: languages/compile_child.py)."""
        limit = memory_bytes + HEADROOM
        if self._free:
            slot = self._free.pop()
            if slot.limit != limit:
                self._set_memory(slot.memory, limit)
                slot.limit = limit
            slot.oom_base = self._oom_count(slot)
            slot.cpu_base = self._cpu_count(slot)
            return slot
        self._next += 1
        name = f"t{self._next}"
        paths = {controller: os.path.join(base, name) for controller, base in self.bases.items()}
        made: list[str] = []
        try:
            for path in dict.fromkeys(paths.values()):
                os.mkdir(path)
                made.append(path)
            _write(paths["pids"], "pids.max", tasks)
            self._set_memory(paths["memory"], limit)
        except OSError:
            for path in made:
                _rmdir(path)
            raise
        cpu = (os.path.join(paths["pids"], "cpu.stat") if self.version == 2
               else os.path.join(paths[ACCOUNTING], "cpuacct.usage") if ACCOUNTING in paths else None)
        return Slot(tuple(made), paths["memory"], limit, self.version, cpu, paths.get(ACCOUNTING))

    def _set_memory(self, folder: str, limit: int) -> None:
        if self.version == 2:
            _write(folder, "memory.max", limit)
            _write(folder, "memory.swap.max", 0, optional=True)
        else:  # memsw (memory + swap) must stay >= the memory limit: lower memory first, raise memsw first
            order = ["memory.limit_in_bytes", "memory.memsw.limit_in_bytes"]
            current = int(_read(os.path.join(folder, "memory.limit_in_bytes")))
            for name in order if limit <= current else order[::-1]:
                _write(folder, name, limit, optional=name.endswith("memsw.limit_in_bytes"))

    @staticmethod
    def join(joins: tuple[bytes, ...]) -> None:
        """In the child, first thing (while it has one thread): move this process into its test's
        cgroup, "0" (the writer) into each of a Slot's `joins`. Paths made by the zygote: what a child
        runs of Python before the solution costs it pages copied from its parent."""
        for path in joins:
            fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
            try:
                os.write(fd, b"0")
            finally:
                os.close(fd)

    def oom_killed(self, slot: Slot) -> bool:
        """Whether the kernel killed a process of this cgroup's current child at its memory limit."""
        return self._oom_count(slot) > slot.oom_base

    def _oom_count(self, slot: Slot) -> int:
        name = "memory.events" if self.version == 2 else "memory.oom_control"
        try:
            for line in read_whole(os.path.join(slot.memory, name)).splitlines():
                key, _, value = line.partition(b" ")
                if key == b"oom_kill":
                    return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def cpu_seconds(self, slot: Slot) -> float | None:
        """The CPU time its current child and every process of its tree have used (killed or reaped
        ones too), from the kernel's account; None where there is none."""
        used = self._cpu_count(slot)
        return None if used is None else used - slot.cpu_base

    def _cpu_count(self, slot: Slot) -> float | None:
        if slot.cpu is None:
            return None
        try:
            data = read_whole(slot.cpu)
            if self.version == 1:
                return int(data) / 1e9  # cpuacct.usage: nanoseconds
            for line in data.splitlines():
                key, _, value = line.partition(b" ")
                if key == b"usage_usec":
                    return int(value) / 1e6
        except (OSError, ValueError):
            pass
        return None

    @staticmethod
    def procs(slot: Slot) -> list[int]:
        """The processes in it now (its first folder's: every hierarchy holds the same)."""
        return _members(slot.dirs[0])

    def recycle(self, slot: Slot) -> bool:
        """Take back the cgroup of a reaped child for a later one; False while a process of it is
        still exiting (try again later)."""
        if any(_read(os.path.join(folder, "cgroup.procs")).strip() for folder in slot.dirs):
            return False
        self._free.append(slot)
        return True

    @staticmethod
    def remove(slot: Slot) -> bool:
        """Remove an emptied cgroup; False while a process of it is still exiting."""
        return all([_rmdir(path) for path in slot.dirs])

    def close(self) -> None:
        """Remove every test cgroup and this zygote's folders (what is still busy stays for sweep())."""
        for base in set(self.bases.values()):
            for entry in _listdir(base):
                _rmdir(os.path.join(base, entry))
            _rmdir(base)


def probe() -> tuple[bool, str]:
    """(bounded, what bounds a test's tasks, memory and CPU parallelism here), for `doctor`: does
    what a zygote of this user would do (create and remove a folder of test cgroups). Without a
    cgroup the layer is off, and says why and how to get one; verdicts then come from the rlimits."""
    cgroups, why = Cgroups.open(f"{PREFIX}{os.getpid()}-probe")
    if cgroups is not None:
        described, accounted = cgroups.description, cgroups.version == 2 or ACCOUNTING in cgroups.bases
        cgroups.close()
        return True, (f"{described}: per test {MAX_TASKS} tasks (pids.max), memory limit + {HEADROOM >> 20} MiB "
                      f"of every kind (stacks, page tables, pipes), OOM kill = MLE; one CPU (affinity)"
                      + ("; a process tree's CPU from its cgroup's account" if accounted else
                         "; a process tree's CPU from /proc (no cpuacct hierarchy)"))
    if os.geteuid() == 0:
        return False, f"no cgroup: {why}; no bound on tasks per test (root ignores RLIMIT_NPROC); one CPU (affinity)"
    return False, (f"no cgroup: {why}. Verdicts come from the rlimits: RLIMIT_NPROC = this uid's tasks + {MAX_TASKS} "
                   f"(run the judge under a dedicated uid: the count is per uid); memory: RLIMIT_DATA (writable "
                   f"memory), RLIMIT_AS (page tables: at most 1/512 of it), seccomp (no shared or stack-like mappings, "
                   f"no memfd, no pipe resizing); unbounded: the kernel's reclaimable caches (dentries of paths "
                   f"looked up); one CPU (affinity)")


def tasks_of_uid(uid: int) -> int:
    """How many tasks (threads included) the uid runs now: RLIMIT_NPROC counts them all, so the
    fallback bound for a test is this plus MAX_TASKS (read once per solution, not per test)."""
    count = 0
    for entry in _listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as handle:
                fields = dict(line.split(":", 1) for line in handle if line[:4] in ("Uid:", "Thre"))
            if int(fields["Uid"].split()[0]) == uid:
                count += int(fields["Threads"])
        except (OSError, KeyError, ValueError):
            pass
    return count


def sweep(prefix: str = PREFIX, alive=None) -> int:
    """Remove the folders `<prefix><pid>[-what]` of processes that are gone (zygotes killed before
    they could clean up, a judge killed with SIGKILL) from the folders where this judge makes its
    own; returns how many are still busy (their last processes still exiting)."""
    alive = alive or (lambda pid: os.path.exists(f"/proc/{pid}"))
    busy = 0
    for home in homes():
        for entry in _listdir(home):
            number = entry[len(prefix):].split("-")[0]
            if entry.startswith(prefix) and number.isdigit() and not alive(int(number)):
                base = os.path.join(home, entry)
                for sub in _listdir(base):
                    kill_members(os.path.join(base, sub))  # a process tree outlives its zygote otherwise
                    _rmdir(os.path.join(base, sub))
                busy += not _rmdir(base)
    return busy


def kill_members(folder: str) -> None:
    """SIGKILL every process of a test cgroup whose zygote is gone: a tree of processes (engine/tree.py)
    has no parent-death signal but its first process's, so it outlives a zygote that was killed. v2's
    cgroup.kill kills them at once; v1, each member through a pidfd opened while it is listed (a pid
    reused by another process is never signalled), pass after pass until none is left."""
    try:
        _write(folder, "cgroup.kill", 1)
        return
    except OSError:
        pass
    for _ in range(KILL_ROUNDS):
        members = _members(folder)
        if not members:
            return
        for pid in members:
            try:
                fd = os.pidfd_open(pid)
            except OSError:
                continue
            try:
                if pid in _members(folder):  # still listed: the descriptor is this member's
                    signal.pidfd_send_signal(fd, signal.SIGKILL)
            except OSError:
                pass
            finally:
                os.close(fd)


def _members(folder: str) -> list[int]:
    try:
        return [int(pid) for pid in _read(os.path.join(folder, "cgroup.procs")).split()]
    except (OSError, ValueError):
        return []


def homes() -> list[str]:
    """The folders where this process's zygotes make theirs (v2: one; v1: one per controller), as
    they are now (nothing is changed)."""
    found = []
    for controller, mount in _mounts().items():
        try:
            own = _own_folder(mount, controller)
        except OSError:
            continue
        found.append(home_of(mount, own) if controller == "" else own)
    return list(dict.fromkeys(found))


def home_of(mount: str, own: str) -> str:
    """v2: where a process in cgroup `own` makes its zygotes' folders: `own`, or the cgroup whose
    leaf it is."""
    if own.rstrip("/") != mount.rstrip("/") and os.path.basename(own.rstrip("/")) == LEAF:
        return os.path.dirname(own.rstrip("/"))
    return own


def prepare_home(mount: str, own: str) -> tuple[str, str]:
    """v2: the cgroup where this process's zygotes make their folders, the pids and memory
    controllers handed down to its children (its processes moved into its leaf first, when it is not
    the root cgroup), and what it is (for doctor). Raises OSError, saying why, where it cannot."""
    home = home_of(mount, own)
    available = _read(os.path.join(home, "cgroup.controllers")).split()
    missing = [c for c in CONTROLLERS if c not in available]
    if missing:
        raise OSError(errno.EOPNOTSUPP, f"its parent hands it no {' and no '.join(missing)} controller "
                                        f"(cgroup.controllers: {' '.join(available) or 'none'})")
    controls = " ".join(f"+{c}" for c in CONTROLLERS)
    for _ in range(MOVE_TRIES):
        if all(c in _read(os.path.join(home, "cgroup.subtree_control")).split() for c in CONTROLLERS):
            break
        try:
            _write(home, "cgroup.subtree_control", controls)
            break
        except OSError as err:
            if err.errno != errno.EBUSY or home.rstrip("/") == mount.rstrip("/"):
                raise
        _move_processes(home, os.path.join(home, LEAF))  # "no internal processes": empty it first
    else:
        raise OSError(errno.EBUSY, f"processes kept being started in it while they were moved to {LEAF}")
    return home, _what_home_is(mount, home)


def _hand_down(controller: str, *folders: str) -> bool:
    """v2: whether `controller` is handed down by each of `folders` (a cgroup and its child, in order)
    now, handing it down where it is not; False where it cannot be (not delegated to this user)."""
    try:
        for folder in folders:
            if controller not in _read(os.path.join(folder, "cgroup.subtree_control")).split():
                _write(folder, "cgroup.subtree_control", f"+{controller}")
        return True
    except OSError:
        return False


def _move_processes(home: str, leaf: str) -> None:
    """Move every process of cgroup `home` into its child `leaf` (made if need be)."""
    try:
        _mkdir(leaf)
    except FileExistsError:
        pass
    for pid in _read(os.path.join(home, "cgroup.procs")).split():
        try:
            _write(leaf, "cgroup.procs", pid)
        except ProcessLookupError:
            pass  # gone meanwhile
        except OSError as err:
            raise OSError(err.errno, f"its process {pid} cannot be moved to its leaf {LEAF} "
                                     f"({err.strerror})") from err


def _what_home_is(mount: str, home: str) -> str:
    """For doctor: the root cgroup, a delegated one, or one the judge made a leaf in."""
    if home.rstrip("/") == mount.rstrip("/"):
        return "the root cgroup"
    leaf = f", its processes moved into its leaf {LEAF}" if os.path.isdir(os.path.join(home, LEAF)) else ""
    if _delegated(home):
        return f"a cgroup delegated to uid {os.getuid()}{leaf}"
    return f"not delegated: root made a leaf for its processes ({LEAF})" if leaf else "not delegated"


def _delegated(folder: str) -> bool:
    """Whether a v2 cgroup was delegated (systemd's Delegate=yes marks it so; a user's own cgroup is one)."""
    for name in ("trusted.delegate", "user.delegate"):
        try:
            if os.getxattr(folder, name) == b"1":
                return True
        except OSError:
            pass
    return os.getuid() != 0 and os.stat(folder).st_uid == os.getuid()


def _why_not(err: OSError) -> str:
    """Why a v2 cgroup cannot be used, and the one command that would give the judge one."""
    if err.errno in (errno.EACCES, errno.EPERM):
        if os.geteuid() == 0:
            return f"{err.strerror}: give the judge a delegated scope: systemd-run --scope -p Delegate=yes judge ..."
        return (f"not writable by uid {os.getuid()} ({err.strerror}); to give the judge a cgroup of its own: "
                f"{DELEGATE} judge ...")
    if err.errno == errno.EROFS:
        return (f"{err.strerror} (a container's cgroup file system): give the container a writable cgroup "
                f"namespace of its own, e.g. docker run --cgroupns=private --privileged ...")
    return err.strerror or str(err)


# --- helpers ----------------------------------------------------------------------------------


def _mounts() -> dict[str, str]:
    """controller -> mount point of its hierarchy ("" for cgroup v2), from /proc/self/mountinfo."""
    found: dict[str, str] = {}
    try:
        with open("/proc/self/mountinfo") as handle:
            for line in handle:
                left, _, right = line.partition(" - ")
                fields, rest = left.split(), right.split()
                if len(fields) < 5 or len(rest) < 3:
                    continue
                if rest[0] == "cgroup2":
                    found.setdefault("", fields[4])
                elif rest[0] == "cgroup":
                    for option in rest[2].split(","):
                        if option in CONTROLLERS or option in (ACCOUNTING, SCHEDULING):
                            found.setdefault(option, fields[4])
    except OSError:
        pass
    return found


def _own_folder(mount: str, controller: str = "") -> str:
    """This process's cgroup folder in the hierarchy mounted at `mount` ("" = v2)."""
    return os.path.normpath(os.path.join(mount, _own_path(controller).lstrip("/")))


def _own_path(controller: str) -> str:
    """This process's cgroup path in a hierarchy ("" = v2), from /proc/self/cgroup."""
    with open("/proc/self/cgroup") as handle:
        for line in handle:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            if controller in controllers.split(",") or (controller == "" and controllers == ""):
                return path
    return "/"


def _read(path: str) -> str:
    return read_whole(path).decode()


def _write(folder: str, name: str, value, optional: bool = False) -> None:
    """Write one control file; `optional`: the kernel may not have it (no swap accounting)."""
    try:
        fd = os.open(os.path.join(folder, name), os.O_WRONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        if optional:
            return
        raise
    try:
        os.write(fd, str(value).encode())
    finally:
        os.close(fd)


def _mkdir(path: str) -> None:
    os.mkdir(path)


def _rmdir(path: str) -> bool:
    try:
        os.rmdir(path)
        return True
    except FileNotFoundError:
        return True
    except OSError:
        return False


def _listdir(path: str) -> list[str]:
    try:
        return [entry.name for entry in os.scandir(path) if entry.is_dir(follow_symlinks=False)]
    except OSError:
        return []
