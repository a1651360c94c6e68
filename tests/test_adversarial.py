"""The adversarial corpus: untrusted solutions that try to cheat, escape or harm the judge, and fail.

Each file in testdata/adversarial/solutions/ plays one threat against the fixture problem
testdata/adversarial/problem/vault, whose answers are a keyed hash of the seed with a key that
exists nowhere (only the test files hold the answers), so AC means the solution read them. Most are
Python; the C++ and Java ones attack what only a compiled language has (the compiler, the build
cache, the Java runtime), and are skipped where their compiler is missing. Its header (`#` lines,
`//` in C++ and Java) declares the verdict (`# expect: X`, as in testdata/solutions), the threat and
why, and optionally:

  # requires: layer|layer    skipped (and not graded) unless one of these sandbox layers is active:
                             without them the attack would really hurt this machine or checkout
  # expect-message: text     the first failing test's message must contain this text
  # expect from Python 3.N: X  the verdict from that Python on (its own rules differ), for the
                             Python the zygote runs: the "nobody" run may run another one
  # engine-bug: ...          a known engine bug gives it another verdict: xfail(strict=True)
  # isolate: why             graded on its own, after the rest (it crashes part of the judge)

A forked "judge" process grades the whole corpus in one tcjudge.engine.pool.Pool (jobs=2,
stop_on_failure) with the real engine: once as the current user and, when that is root, once more
as uid/gid 65534 with a zygote interpreter that user can run. The judge carries a secret variable
in its environment and is a child subreaper, so every process a test child could leave behind
comes back to it. Around each run the suite records what a successful attack would leave: the
checkout's content (every file, mode and hash), a victim file in /tmp, canary files, traffic on
loopback listeners at the ports and paths the corpus aims at, processes left alive, and the secret
in any message. Detectors are shown to see what they look for (a connection of our own, zygotes
while they run, the secret in the judge's environment, an accepted control solution that knows the
answers), so every assertion can fail. (Run once against a copy of the engine whose zygote skips
its confinement, the verdict, checkout, /tmp, canary and listener checks all failed.)

Attacks report a success they can see by raising RuntimeError("LEAK: ..."): an RE (or AC, when they
found the answer) instead of the declared WA.
"""

from __future__ import annotations

import ctypes
import fcntl
import hashlib
import json
import os
import pwd
import re
import secrets
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import pytest

from tcjudge.engine import sandbox
from tcjudge.engine.pool import Pool, SolutionRun
from tcjudge.problems.format import Problem
from tcjudge.problems.loader import load_problem
from tcjudge.engine.worker import Worker
from tcjudge.languages import for_path

from . import budget
from .conftest import TESTDATA, expected_verdict

ROOT = TESTDATA.parent
ADVERSARIAL = TESTDATA / "adversarial"
VAULT = ADVERSARIAL / "problem" / "vault"
CORPUS = sorted(path for path in (ADVERSARIAL / "solutions").iterdir() if path.suffix in (".py", ".cpp", ".java"))

SECRET_NAME = "ADVERSARIAL_JUDGE_SECRET"  # the corpus looks for exactly this name
CANARY = "adversarial-canary"  # every file an attack would create has this in its name
MARKERS = ("adversarial-marker", CANARY)  # in the command line of any program an attack would start
TCP_PORT, UDP_PORT = 47011, 47012  # fixed: the corpus cannot be told where to aim
UNIX_PATH = "/tmp/adversarial-judge-listener.sock"
TMP_VICTIM = "/tmp/adversarial-victim.txt"  # mode 0666: only the sandbox keeps attacks off it
ABSTRACT_NAME = "\0adversarial-judge-listener"
LISTENERS_LOCK = "/tmp/adversarial-judge-listener.lock"
NOBODY = 65534
PYTHONS = [sys.executable, "/usr/bin/python3.11", "/usr/bin/python3"]
DAEMON_GRACE = 2.5  # s after the judge ends before looking for canaries (escape_daemon's would come at 1.5 s)
JUDGE_CPU = 600.0  # s of CPU for the whole corpus (its process tree); a judge that uses more is killed and the run fails
PR_SET_CHILD_SUBREAPER = 36
SKIPPED_TREES = {".git", "__pycache__", ".pytest_cache", ".venv"}  # written by git and Python themselves
PROBE = {layer.name: layer for layer in sandbox.probe()}


# --- the corpus --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    path: Path
    expect: str
    threat: str
    requires: tuple[str, ...] = ()
    expect_message: str | None = None
    engine_bug: str | None = None
    isolate: bool = False

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def missing_layers(self) -> str | None:
        """Why this entry must not run here (its compiler is missing, or none of its required layers
        is active), or None."""
        language = for_path(self.path)
        if language.toolchain() is None:
            return language.missing_message()
        if not self.requires or any(PROBE[name].active for name in self.requires):
            return None
        return "; ".join(f"{name} inactive ({PROBE[name].detail})" for name in self.requires)


def read_header(path: Path) -> dict[str, str]:
    """The `# key: value` lines (`// key: value` in C++ and Java) at the top of a corpus file;
    indented `#   ...` lines continue one."""
    fields: dict[str, str] = {}
    key = None
    mark = "#" if path.suffix == ".py" else "//"
    for line in path.read_text().splitlines():
        if not line.startswith(mark):
            break
        line = "#" + line[len(mark):]
        match = re.match(r"^# ([a-z-]+): (.*)$", line)
        if match:
            key = match.group(1)
            fields[key] = match.group(2).strip()
        elif key and line.startswith("#   "):
            fields[key] += " " + line[4:].strip()
        else:
            key = None
    return fields


def load_entry(path: Path) -> Entry:
    fields = read_header(path)
    requires = tuple(fields["requires"].split("|")) if "requires" in fields else ()
    assert all(name in PROBE for name in requires), f"{path.name}: unknown layer in 'requires: {fields['requires']}'"
    return Entry(path, expected_verdict(path), fields.get("threat", ""), requires,
                 fields.get("expect-message"), fields.get("engine-bug"), "isolate" in fields)


ENTRIES = [load_entry(path) for path in CORPUS]


def entry_param(entry: Entry):
    marks = []
    if entry.missing_layers:
        marks.append(pytest.mark.skip(reason=f"not graded: {entry.missing_layers}"))
    if entry.engine_bug:
        summary = entry.engine_bug.split(". ")[0]  # the whole story is in the file's header
        marks.append(pytest.mark.xfail(strict=True, reason=f"engine bug: {summary} ({entry.path.name})"))
    return pytest.param(entry, id=entry.name, marks=marks)


# --- detectors of side effects -----------------------------------------------------------------


class Listeners:
    """Loopback listeners at the fixed addresses the corpus aims at; drain() counts what arrived."""

    def __init__(self):
        self.sockets: dict[str, socket.socket] = {}
        self._listen("tcp", socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", TCP_PORT))
        if socket.has_ipv6:
            try:
                self._listen("tcp6", socket.AF_INET6, socket.SOCK_STREAM, ("::1", TCP_PORT))
            except OSError:  # no IPv6 loopback here: nothing can reach ::1 either
                pass
        self._listen("udp", socket.AF_INET, socket.SOCK_DGRAM, ("127.0.0.1", UDP_PORT))
        if os.path.exists(UNIX_PATH) and stat.S_ISSOCK(os.lstat(UNIX_PATH).st_mode):
            os.unlink(UNIX_PATH)  # left by an earlier run
        self._listen("unix", socket.AF_UNIX, socket.SOCK_STREAM, UNIX_PATH)
        os.chmod(UNIX_PATH, 0o777)  # file permissions would let any user in: only the sandbox stops it
        self._listen("abstract", socket.AF_UNIX, socket.SOCK_STREAM, ABSTRACT_NAME)

    def _listen(self, name, family, kind, address):
        sock = socket.socket(family, kind)
        try:
            if kind == socket.SOCK_STREAM:  # (for UDP it would let a second listener share the port)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(address)
            if kind == socket.SOCK_STREAM:
                sock.listen(128)
            sock.setblocking(False)
        except OSError as err:
            sock.close()
            if name == "tcp6":
                raise
            self.close()
            raise RuntimeError(f"cannot listen on {address!r} ({err}); is another copy of this suite running?")
        self.sockets[name] = sock

    def drain(self) -> dict[str, int]:
        """How many connections or datagrams each listener received since the last drain."""
        counts = {}
        for name, sock in self.sockets.items():
            count = 0
            while True:
                try:
                    if sock.type == socket.SOCK_STREAM:
                        conn, _ = sock.accept()
                        conn.close()
                    else:
                        sock.recvfrom(65536)
                except (BlockingIOError, InterruptedError):
                    break
                count += 1
            counts[name] = count
        return counts

    def poke(self) -> None:
        """Reach every listener once from this (unconfined) process."""
        for name, sock in self.sockets.items():
            peer = socket.socket(sock.family, sock.type)
            with peer:
                if sock.type == socket.SOCK_STREAM:
                    peer.connect(sock.getsockname())
                else:
                    peer.sendto(b"poke", sock.getsockname())
        time.sleep(0.1)

    def fds(self) -> list[int]:
        return [sock.fileno() for sock in self.sockets.values()]

    def close(self) -> None:
        for sock in self.sockets.values():
            sock.close()
        if "unix" in self.sockets and os.path.exists(UNIX_PATH):  # ours only: never another run's
            os.unlink(UNIX_PATH)


def checkout_state() -> dict[str, str]:
    """Every path of the checkout (tracked, untracked and ignored, outside git's and Python's own
    caches) with its type, mode and content hash; tracked files (git ls-files) that are gone show
    as "missing"."""
    state: dict[str, str] = {}

    def describe(path: str) -> str:
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            return f"link {os.readlink(path)}"
        if stat.S_ISDIR(info.st_mode):
            return f"dir {stat.S_IMODE(info.st_mode):o}"
        if stat.S_ISREG(info.st_mode):
            with open(path, "rb") as handle:
                digest = hashlib.sha256(handle.read()).hexdigest()
            return f"file {stat.S_IMODE(info.st_mode):o} {digest}"
        return f"special {info.st_mode:o}"

    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIPPED_TREES]
        for name in dirs + files:
            path = os.path.join(folder, name)
            state[os.path.relpath(path, ROOT)] = describe(path)
    git = ["git", "-C", str(ROOT), "-c", f"safe.directory={ROOT}"]  # the checkout may be another user's
    tracked = subprocess.run([*git, "ls-files", "-z"], capture_output=True, check=True).stdout
    for name in tracked.decode().split("\0"):
        if name and not SKIPPED_TREES & set(Path(name).parts):
            state.setdefault(name, "missing")
    return state


TAMPER_TEXT = CANARY.encode()  # the corpus writes this into any file it manages to write
EMPTY = hashlib.sha256(b"").hexdigest()


def attack_marks(path: str, before: str | None, after: str | None) -> list[str]:
    """Why a change of one checkout path (a checkout_state() value before and after) looks like
    the work of an attack: a canary name, a tracked file gone, a mode change, a link, a truncation,
    or the corpus's tamper text."""
    marks = []
    if CANARY in path:
        marks.append("canary name")
    if after == "missing":
        marks.append("tracked file removed")
    if after and after.startswith("link") and not (before or "").startswith("link"):
        marks.append("new symbolic link")
    if before and after and before.split()[0] == after.split()[0] and before.split()[1] != after.split()[1]:
        marks.append("mode changed")
    if after and after.startswith("file "):
        if after.endswith(EMPTY) and before and not before.endswith(EMPTY):
            marks.append("truncated")
        try:
            info = os.lstat(ROOT / path)
            with open(ROOT / path, "rb") as handle:
                data = handle.read()
        except OSError:
            return marks
        if info.st_nlink > 1:
            marks.append("hard link")
        if TAMPER_TEXT in data:
            marks.append("tamper text")
    return marks


def outside_state() -> dict[str, str | None]:
    """The files outside the checkout that the corpus attacks: type, mode, inode, links, content."""
    state: dict[str, str | None] = {}
    for path in (TMP_VICTIM, UNIX_PATH):
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            state[path] = None
            continue
        digest = ""
        if stat.S_ISREG(info.st_mode):
            with open(path, "rb") as handle:
                digest = hashlib.sha256(handle.read()).hexdigest()
        state[path] = f"{info.st_mode:o} inode {info.st_ino} links {info.st_nlink} mtime {info.st_mtime_ns} {digest}"
    return state


def make_tmp_victim() -> None:
    if os.path.lexists(TMP_VICTIM):
        os.unlink(TMP_VICTIM)
    with open(TMP_VICTIM, "w") as handle:
        handle.write("The adversarial corpus must not be able to change this file.\n")
    os.chmod(TMP_VICTIM, 0o666)


def canary_places() -> list[Path]:
    homes = {"/root", pwd.getpwuid(NOBODY).pw_dir if _has_user(NOBODY) else "", str(Path.home())}
    return [Path(p) for p in ["/", "/tmp", "/var/tmp", "/dev/shm", *sorted(homes)] if p]


def _has_user(uid: int) -> bool:
    try:
        pwd.getpwuid(uid)
        return True
    except KeyError:
        return False


def find_canaries() -> list[str]:
    """Files and folders named like an attack's canary: in the checkout (any depth), /tmp, $HOME, ..."""
    found = []
    for place in canary_places():
        try:
            found += [str(place / name) for name in os.listdir(place) if CANARY in name]
        except OSError:
            pass
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d != ".git"]
        found += [os.path.join(folder, name) for name in dirs + files if CANARY in name]
    return sorted(set(found))


def remove(paths: list[str]) -> None:
    for path in paths:
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.unlink(path)


def marked_processes(pids: set[int] = frozenset()) -> list[str]:
    """Live processes with an attack's marker in their command line, or zygotes among `pids`."""
    found = []
    for proc in psutil.process_iter(["pid", "cmdline", "status"]):
        cmdline = " ".join(proc.info["cmdline"] or ())
        if proc.info["status"] == psutil.STATUS_ZOMBIE or proc.info["pid"] == os.getpid():
            continue
        if any(marker in cmdline for marker in MARKERS) or (proc.info["pid"] in pids and "tcjudge.engine.zygote" in cmdline):
            found.append(f"{proc.info['pid']}: {cmdline[:200]}")
    return found


# --- the judge process -------------------------------------------------------------------------


def control_solution(problem: Problem, folder: Path) -> Path:
    """A solution that knows every answer (from the judge's side): proves the engine can say AC."""
    answers = {test.args[0]: test.expected for test in problem.tests}
    path = folder / "control_accepted.py"
    path.write_text(
        "# The suite's positive control: the answer table, written by the trusted side.\n"
        f"ANSWERS = {answers!r}\n\n\nclass Vault:\n    def open(self, seed):\n        return ANSWERS[seed]\n"
    )
    path.chmod(0o644)
    return path


def pick_python() -> str | None:
    """The first interpreter this (possibly unprivileged) user can run for the zygote."""
    return next((candidate for candidate in PYTHONS if candidate and os.access(candidate, os.X_OK)), None)


def judge_main(variant: str, out_fd: int, problem: Problem, main_paths: list[Path], isolated_paths: list[Path],
               guarded: set[Path], secret: str, close_fds: list[int], build_cache: Path) -> None:
    """In the forked judge: drop privileges if asked, grade, look for leftovers, report, _exit.

    `guarded`: entries that must run confined (they have a `requires:` line); they are left out if
    the zygote says it could not set up its confinement. `build_cache`: a fresh build cache of this
    run's user, so every C++ and Java entry is compiled by this judge, as this user."""
    try:
        for fd in close_fds:
            os.close(fd)
        if variant == "nobody":
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
        report: dict = {"uid": os.getuid(), "gid": os.getgid(), "pid": os.getpid()}
        python = pick_python()
        if python is None:
            report["skip"] = f"no interpreter among {PYTHONS} that uid {os.getuid()} can execute"
            raise _Done
        report["python"] = python
        # the verdicts follow the zygote's Python, which may not be this one (docs/verdicts.md, "Python versions")
        report["python_version"] = [int(part) for part in subprocess.run(
            [python, "-c", "import sys; print(*sys.version_info[:2])"], capture_output=True, text=True,
            check=True).stdout.split()]
        os.environ["JUDGE_CACHE"] = str(build_cache)
        if not os.access(sys.executable, os.X_OK):
            sys.executable = python  # the compiler's launcher runs it too (root's pyenv is not uid 65534's)
        unreadable = [str(p) for p in (ROOT / "tcjudge" / "engine" / "zygote.py", *main_paths, *isolated_paths)
                      if not os.access(p, os.R_OK)]
        if unreadable:
            report["skip"] = f"uid {os.getuid()} cannot read {unreadable[0]}: the checkout must be world-readable"
            raise _Done
        if not os.access(tempfile.gettempdir(), os.W_OK):
            tempfile.tempdir = "/tmp"  # the worker's stderr file; never one of pytest's root-only folders
        os.environ[SECRET_NAME] = secret
        first = Worker(python)  # a zygote that could not prepare its confinement says so when it starts
        report["zygote_warnings"] = first.warnings
        first.close()
        if first.warnings:
            main_paths = [p for p in main_paths if p not in guarded]
            isolated_paths = [p for p in isolated_paths if p not in guarded]
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")
        me = psutil.Process()
        zygotes: set[int] = set()
        reported: dict[str, int] = {}

        def on_test(run, index, result):
            reported[run.solution.stem] = reported.get(run.solution.stem, 0) + 1
            for child in me.children():
                try:
                    if "tcjudge.engine.zygote" in " ".join(child.cmdline()):
                        zygotes.add(child.pid)
                except psutil.Error:
                    pass

        def runs(paths):
            return [SolutionRun(problem, path, problem.tests, stop_on_failure=True) for path in paths]

        results = []
        with Pool(2, python=python) as pool:
            results += pool.grade(runs(main_paths), on_test=on_test)
            for path in isolated_paths:  # one at a time: a crash of a grading thread cannot spread
                results += pool.grade(runs([path]), on_test=on_test)
        time.sleep(0.5)  # test children die with their zygote (PDEATHSIG) and come back to us
        reaped = 0
        while True:  # reap the dead ones only: anything still alive is what we are looking for
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            reaped += 1
        left = []
        for proc in me.children(recursive=True):
            try:
                left.append(f"{proc.pid} ({proc.status()}): {' '.join(proc.cmdline())[:200]}")
                proc.kill()  # our own descendants: recorded, now cleaned up
            except psutil.Error:
                pass
        report.update({
            "results": {result.solution.stem: result.to_json() for result in results},
            "reported": reported, "zygotes": sorted(zygotes), "left": left, "reaped": reaped,
            "secret_in_judge_env": os.environ.get(SECRET_NAME) == secret,
        })
    except _Done:
        pass
    except BaseException:  # noqa: BLE001 - everything goes back to the test
        report = {"error": traceback.format_exc()}
    try:
        data = json.dumps(report).encode()
        while data:
            data = data[os.write(out_fd, data):]
    finally:
        os._exit(0)


class _Done(Exception):
    pass


@dataclass
class Outcome:
    variant: str
    judge: dict  # what the judge reported (results, zygotes seen, processes left, ...)
    judge_status: int
    secret: str
    changed: dict[str, tuple[str | None, str | None]]  # checkout paths: (before, after)
    outside: dict[str, tuple[str | None, str | None]]  # attacked files outside the checkout
    canaries: list[str]
    traffic: dict[str, int]
    stray: list[str]  # processes found by the suite after the judge ended
    graded: list[str] = field(default_factory=list)
    seconds: float = 0.0
    build_cache_bytes: int = 0  # what the run's builds left in its build cache

    @property
    def results(self) -> dict[str, dict]:
        return self.judge.get("results", {})


def run_judge(variant: str, listeners: Listeners) -> Outcome:
    problem = load_problem(VAULT)
    runnable = [e for e in ENTRIES if not e.missing_layers]
    control_dir = Path(tempfile.mkdtemp(prefix="adversarial-control-", dir="/tmp"))
    build_cache = Path(tempfile.mkdtemp(prefix="adversarial-builds-", dir="/tmp"))
    try:
        control_dir.chmod(0o755)  # the unprivileged zygote compiles the control from here
        if variant == "nobody":
            os.chown(build_cache, NOBODY, NOBODY)
        control = control_solution(problem, control_dir)
        # Known engine bugs first (some hold a worker for long: start them early), then the rest;
        # the ones that crash part of the judge one at a time, at the end.
        ordered = sorted((e for e in runnable if not e.isolate), key=lambda e: not e.engine_bug)
        main_paths = [e.path for e in ordered] + [control]
        isolated_paths = [e.path for e in runnable if e.isolate]
        remove(find_canaries())  # left by an earlier, failed run
        make_tmp_victim()
        listeners.drain()
        before, outside_before = checkout_state(), outside_state()
        secret = str(10**17 + secrets.randbelow(9 * 10**17))
        started = time.monotonic()
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            guarded = {e.path for e in runnable if e.requires}
            judge_main(variant, write_fd, problem, main_paths, isolated_paths, guarded, secret, listeners.fds(),
                       build_cache)
        os.close(write_fd)
        data, status = _collect(pid, read_fd)
        seconds = time.monotonic() - started
        judge = json.loads(data) if data else {"error": f"the judge wrote nothing (wait status {status})"}
        time.sleep(max(0.0, DAEMON_GRACE - (time.monotonic() - started - seconds)))
        after, outside_after = checkout_state(), outside_state()
        changed = {p: (before.get(p), after.get(p)) for p in before.keys() | after.keys() if before.get(p) != after.get(p)}
        outside = {p: (outside_before[p], outside_after[p]) for p in outside_before if outside_before[p] != outside_after[p]}
        return Outcome(variant, judge, status, secret, changed, outside, find_canaries(), listeners.drain(),
                       marked_processes(set(judge.get("zygotes", ()))), [p.stem for p in main_paths + isolated_paths],
                       seconds, sum(path.lstat().st_size for path in build_cache.rglob("*")))
    finally:
        shutil.rmtree(control_dir, ignore_errors=True)
        shutil.rmtree(build_cache, ignore_errors=True)
        if os.path.lexists(TMP_VICTIM):
            os.unlink(TMP_VICTIM)


def _collect(pid: int, fd: int) -> tuple[bytes, int]:
    """Everything the judge writes, and its wait status; a judge past its CPU budget (or idle, hung)
    is killed with everything it started (tests/budget.py: never a wall-clock bound)."""
    chunks, watch = [], budget.Watch(pid, cpu=JUDGE_CPU)
    try:
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
    finally:
        os.close(fd)
        _, status = os.waitpid(pid, 0)
        watch.stop()
    if watch.reason:
        chunks = [json.dumps({"error": f"the judge {watch.reason}"}).encode()]
    return b"".join(chunks), status


# --- fixtures ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def listeners():
    # One copy of this module's listeners at a time on a machine: a second copy of the suite (another
    # developer's, a CI job beside) waits here for the first's to close, where all of its cases were
    # errors, "Address already in use" (helper-39). The lock ends with this process, however it ends.
    held = os.open(LISTENERS_LOCK, os.O_RDONLY | os.O_CREAT, 0o666)
    fcntl.flock(held, fcntl.LOCK_EX)
    try:
        listening = Listeners()
    except BaseException:
        os.close(held)
        raise
    try:
        listening.drain()
        listening.poke()  # the detector must see a connection of our own, or it proves nothing
        seen = listening.drain()
        assert all(count == 1 for count in seen.values()), f"listeners do not see traffic: {seen}"
        yield listening
    finally:
        listening.close()
        os.close(held)


@pytest.fixture(scope="module", params=["self", "nobody"])
def judged(request, listeners) -> Outcome:
    variant = request.param
    if variant == "nobody" and os.geteuid() != 0:
        pytest.skip("dropping to uid 65534 needs root; this run is already unprivileged (the 'self' variant)")
    outcome = run_judge(variant, listeners)
    if "skip" in outcome.judge:
        pytest.skip(outcome.judge["skip"])
    assert "error" not in outcome.judge, outcome.judge["error"]
    return outcome


# --- the tests ---------------------------------------------------------------------------------


def test_corpus_covers_every_threat():
    assert len(ENTRIES) >= 25
    for entry in ENTRIES:
        fields = read_header(entry.path)
        assert entry.threat and fields.get("why"), f"{entry.path.name}: needs '# threat:' and '# why:' lines"
        assert entry.expect in {"AC", "WA", "TLE", "MLE", "RE", "CE"}, entry.path.name
    groups = {match for e in ENTRIES for match in re.findall(r"\((\d)\)", e.threat.split(":")[0])}
    assert groups == {"1", "2", "3", "4", "5"}, f"threat groups covered: {sorted(groups)}"
    assert not any(CANARY in p.name or any(m in p.name for m in MARKERS) for p in CORPUS)


def test_vault_answers_cannot_be_guessed():
    problem = load_problem(VAULT)
    answers = [test.expected for test in problem.tests]
    assert len(set(answers)) == len(answers) >= 5
    assert all(abs(a) > 2**40 for a in answers)  # no small constant, no seed echoed back
    assert problem.time_limit == 1 and problem.memory_limit == 128


def test_judge_ran_as_intended(judged):
    expected_uid = NOBODY if judged.variant == "nobody" else os.getuid()
    assert (judged.judge["uid"], judged.judge["gid"]) == (expected_uid, NOBODY if judged.variant == "nobody" else os.getgid())
    assert judged.judge["secret_in_judge_env"], "the secret was not in the judge's environment: the check proves nothing"
    assert judged.judge["zygote_warnings"] == [], "the zygote runs solutions unconfined"


@pytest.mark.parametrize("entry", [entry_param(e) for e in ENTRIES])
def test_attack_gets_its_declared_verdict(judged, entry):
    if entry.name not in judged.results:
        pytest.fail(f"not graded: the zygote could not confine solutions: {judged.judge['zygote_warnings']}")
    result = judged.results[entry.name]
    failure = next((t for t in result["tests"] if t["verdict"] not in ("AC", None)), None)
    message = result["message"]
    expect = expected_verdict(entry.path, tuple(judged.judge["python_version"]))  # the zygote's Python's
    assert result["verdict"] == expect, f"{entry.name}: {result['verdict']} ({message}) on {judged.judge['python']}"
    if entry.expect_message:
        assert entry.expect_message in message, f"{entry.name}: {message}"
    assert "LEAK" not in message
    if expect == "CE":  # it never loaded: no test ran
        assert all(t["verdict"] is None for t in result["tests"]) and message
    elif expect != "AC":
        assert failure is not None and failure["verdict"] == expect


def test_control_solution_is_accepted(judged):
    # The answers can be returned and are recognised: an attack that found them would be judged AC.
    result = judged.results["control_accepted"]
    assert result["verdict"] == "AC" and result["passed"] == result["total"] == 6, result["message"]


def test_checkout_unchanged(judged):
    # The corpus tree holds every existing file the write attacks aim at (the victim, the vault's
    # tests, their own sources): byte for byte, modes included, nothing added or removed.
    corpus_tree = str(ADVERSARIAL.relative_to(ROOT))
    inside = {p: c for p, c in judged.changed.items() if p == corpus_tree or p.startswith(corpus_tree + "/")}
    assert inside == {}, "the corpus tree changed"
    # Elsewhere other people may be editing the checkout while the suite runs: a change there fails
    # the test when it bears an attack's marks, and is otherwise reported as a warning.
    outside = {p: c for p, c in judged.changed.items() if p not in inside}
    marked = {p: c for p, c in outside.items() if attack_marks(p, *c)}
    assert marked == {}, "the checkout changed the way an attack would change it"
    if outside:
        warnings.warn(f"checkout paths changed during the {judged.variant} run, without any attack's marks "
                      f"(someone else editing?): {sorted(outside)}")


def test_files_outside_checkout_unchanged(judged):
    assert judged.outside == {}, "the /tmp victim or the listener's socket file changed"


def test_no_canary_file_anywhere(judged):
    assert judged.canaries == [], f"files an attack would create exist: {judged.canaries}"


def test_listeners_saw_no_traffic(judged):
    assert set(judged.traffic) >= {"tcp", "udp", "unix", "abstract"}
    assert all(count == 0 for count in judged.traffic.values()), judged.traffic


def test_no_process_left_behind(judged):
    # The detector works: the judge saw its zygotes while they ran (they carry "tcjudge.engine.zygote").
    assert judged.judge["zygotes"], "no zygote was ever seen: the leftover check would see nothing"
    assert judged.judge["left"] == [], "still running under the judge after the pool closed"
    assert judged.stray == [], "still running after the judge ended"


def test_judge_survived_and_reported_every_test(judged):
    assert os.WIFEXITED(judged.judge_status) and os.WEXITSTATUS(judged.judge_status) == 0, judged.judge_status
    bugs = {e.name for e in ENTRIES if e.engine_bug}
    assert set(judged.results) == set(judged.graded)
    for name, result in judged.results.items():
        if name in bugs:
            continue
        verdicts = [test["verdict"] for test in result["tests"]]
        assert "IE" not in verdicts and result["verdict"] != "IE", f"{name}: {result['message']}"
        if result["verdict"] == "CE":  # it never loaded, so no test runs: the reason is the message
            assert result["message"] and verdicts == [None] * len(verdicts), name
            continue
        first_failure = next((i for i, v in enumerate(verdicts) if v != "AC"), len(verdicts))
        assert None not in verdicts[: first_failure + 1], f"{name}: tests left without a verdict: {verdicts}"
        at_load = result["message"].startswith("while loading the solution")  # TLE/MLE before any test ran
        # every test that counts was reported; a parallel worker may also have reported a test past
        # the first failure, which then never counts (docs/verdicts.md)
        assert judged.judge["reported"].get(name, 0) >= sum(v is not None for v in verdicts) - at_load, name


def test_build_cache_holds_no_huge_program(judged):
    # cpp_huge_binary's 250 MiB array made a 252 MiB program; now no build keeps more than 64 MiB.
    assert judged.build_cache_bytes < 64 << 20, f"{judged.build_cache_bytes >> 20} MiB of builds"


def test_secret_never_reached_a_solution(judged):
    texts = [r["message"] for r in judged.results.values()]
    texts += [t["message"] for r in judged.results.values() for t in r["tests"]]
    assert not [text for text in texts if judged.secret in text]
    assert judged.results["judge_secret_env"]["message"].endswith("got -7")  # its "not found" code
