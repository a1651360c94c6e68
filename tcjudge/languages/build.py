"""Compiling is untrusted work: confined, limited, and done once per source (a cache).

A compiler reads whatever the source names (`#include "/etc/shadow"`, a template bomb, a
gigabyte of error messages), so it runs in its own process group under rlimits (CPU, data,
file size, open files), a wall-clock limit for the whole build (g++ under a second standard, javap
after javac: all of them by one deadline), a cap on the messages kept, and Landlock: read-only
system directories, read-write only its fresh build directory. The judge's own folders (the
project: problems and their tests, solutions, reports, the history; the judge's package; the
caches of other solutions) are never readable, wherever they are: a system directory that holds
one is granted minus the way to it. The per-test seccomp filter cannot apply (g++ forks cc1plus, as, ld).
A compile stopped at a limit is a compile error, kept as any; but one stopped at the wall clock
having had little of the CPU was starved by a busy machine: the judge's trouble (IE), never kept.

Builds are kept under the cache folder ($JUDGE_CACHE, else $XDG_CACHE_HOME/judge, else
~/.cache/judge), keyed by a hash of the source, the compiler's version, the flags and our runtime,
so a solution is compiled once per machine, whatever the number of workers or runs. A build is at
most PROGRAM_LIMIT_MIB (a larger one is CE, and its files are not kept), and the cache at most
CACHE_LIMIT_MIB: past it, the builds used least recently are removed.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..cachedir import cache_root, private
from ..protected import PROJECT_ROOT, judge_folders
from ..protocol import ready_to_read
from ..record import record
from .compile_child import LAUNCH_FAILED, confine_and_exec  # noqa: F401 (an older judge's launch line names it here)

PROGRAM_LIMIT_MIB = 64  # the largest build (program, sources, all) and file a compile may make: above, CE
PROGRAM_FILES = 10_000  # the most files a build may make (javac's classes, GHC's objects: tens): above, CE
CACHE_LIMIT_MIB = 1024  # the build cache's cap: past it, the builds used least recently are removed
STARVED_SHARE = 0.9  # a compile stopped at the wall bound with less CPU than this share of its wall time: IE
# A compile past IDLE_AFTER seconds whose processes ran or waited for a CPU less than IDLE_SHARE of the
# time is stopped (CE): a compiler does not sleep, and a source that makes it (a Haskell -pgmF shell's
# `sleep`) held a grading place for the whole wall bound, so two teams stopped a contest's grading at
# -j 2 (breaker 52b). Looked at every LOOK_EVERY seconds, whatever it prints, over every process it had
# (breaker 52d: a loop of `sleep 1`, or one that printed, or slept 12 s between bits of work, was never
# idle for 15 s on end); where the kernel does not say how long a process waited, never.
# 10 s, not 30: eight teams' sleeping compiles held every builder (2N, and the N spare ones) for 25 s, and
# another team's C++ AC waited as long (breaker 56c F4)
IDLE_AFTER, IDLE_SHARE, LOOK_EVERY = 10.0, 0.5, 1.0
IN_USE_SECONDS = 600  # a build used this recently may be running: removed only when the cache is past twice its cap
STALE_SECONDS = 3600  # a build folder still unfinished after this was left by a judge that died
SYSTEM_READABLE = ("/usr", "/lib", "/lib64", "/lib32", "/etc/ld.so.cache", "/etc/alternatives")
LAUNCH = f"""import os, sys
try:
    sys.path.insert(0, {str(PROJECT_ROOT)!r})
    from tcjudge.languages.compile_child import confine_and_exec
    confine_and_exec(sys.argv[1])
except BaseException as err:
    os.write(2, f"{{type(err).__name__}}: {{err}}".encode())
    os._exit({LAUNCH_FAILED})
"""


class BuildFault(RuntimeError):
    """The judge could not run the compiler (IE, not CE)."""


@record(frozen=True)
class CompileLimits:
    cpu_seconds: int = 30
    wall_seconds: float = 120.0
    memory_mib: int = 2048  # RLIMIT_DATA of the compiler (each of its processes)
    file_mib: int = PROGRAM_LIMIT_MIB  # largest file it may write (the assembler's, the linker's)
    message_bytes: int = 64 * 1024  # compiler output kept; the rest is read and dropped


COMPILE_LIMITS = CompileLimits()  # a compile's limits where its language sets none of its own


def deadline(limits: CompileLimits | None = None) -> float:
    """When a build that starts now must have ended (time.monotonic()): every compiler it runs ends by
    it, so a build's wall bound is that of one compile, however many it runs. On a busy machine a
    bomb gets little CPU and ends at this bound: a second compile with a bound of its own doubled it."""
    return time.monotonic() + (limits or COMPILE_LIMITS).wall_seconds


@record(frozen=True)
class Outcome:
    ok: bool
    message: str  # the compiler's messages (all of them when it failed)
    detail: dict  # what the language recorded (e.g. the C++ standard that compiled)
    folder: Path  # the build directory: the program and whatever it needs


class NotKept(Exception):
    """A compile error that a busy machine could have made (a compile stopped as idle: its activity is
    read from the scheduler's figures): CE, its build not kept, so the next run compiles it again
    (breaker 53b F2: an honest Rust file stopped so was CE at once from the cache when sent again)."""


def cached_build(key_parts: list, build, limit_mib: int = PROGRAM_LIMIT_MIB) -> Outcome:
    """The outcome of `build(folder)` -> (ok, message, detail) for this key, built at most once: a
    fresh folder is built and then renamed into place, so a half-written build is never used.

    A cached build is used only while it is what the judge built: every entry owned by this user
    and writable by no one else, and every file's SHA-256 as recorded when it was built. Else (a
    cache another user can write, a planted or changed binary) it is built again."""
    digest = hashlib.sha256()
    for part in key_parts:
        data = part if isinstance(part, bytes) else str(part).encode()
        digest.update(len(data).to_bytes(8, "little") + data)
    key = digest.hexdigest()
    shelf = cache_root() / "builds" / key[:2]
    final = shelf / key
    recorded = _trusted_outcome(final)
    if recorded:
        _mark_used(final)
        return recorded
    shelf.mkdir(mode=0o700, parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=".building-", dir=shelf))
    try:
        try:
            ok, message, detail = _within_limit(fresh, *build(fresh), limit_mib=limit_mib)
        except NotKept as failure:  # (the compile error stands, its build is not kept)
            shutil.rmtree(fresh, ignore_errors=True)
            return Outcome(False, str(failure), {}, fresh)
        if not ok and _free_bytes(fresh) < PROGRAM_LIMIT_MIB << 20:  # (breaker 50a: CE 'ld returned 1', kept)
            raise BuildFault(f"the disk of the build cache ({cache_root()}) is nearly full, under "
                             f"{PROGRAM_LIMIT_MIB} MiB free: the compiler's failure may be the disk's; not kept")
        make_private(fresh)
        files = {str(path.relative_to(fresh)): _sha256(path) for path in sorted(fresh.rglob("*")) if path.is_file()}
        (fresh / "outcome.json").write_text(json.dumps({"ok": ok, "message": message, "detail": detail,
                                                        "files": files}))
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    if os.path.lexists(final):
        trusted = _trusted_outcome(final)
        if trusted:  # another worker finished the same build meanwhile: theirs
            shutil.rmtree(fresh, ignore_errors=True)
            return trusted
        shutil.rmtree(final, ignore_errors=True)  # an entry not to be trusted: replaced by this build
    try:
        os.rename(fresh, final)
    except OSError:  # another worker finished the same build first, or the entry is not ours to replace
        return _trusted_outcome(final) or _read_outcome(fresh)
    evict(cache_root() / "builds", CACHE_LIMIT_MIB << 20, spare=final)
    return _trusted_outcome(final) or _read_outcome(fresh if fresh.exists() else final)


def _free_bytes(folder: Path) -> int:
    """Bytes free for this user on the file system of `folder`."""
    info = os.statvfs(folder)
    return info.f_bavail * info.f_frsize


def _within_limit(folder: Path, ok: bool, message: str, detail: dict,
                  limit_mib: int = PROGRAM_LIMIT_MIB) -> tuple[bool, str, dict]:
    """A build over `limit_mib` (a program's: PROGRAM_LIMIT_MIB), or of more than PROGRAM_FILES files, is a
    compile error, and its files are not kept (breaker 50d: 200,000 empty files cost the judge 50 s of
    hashing, each use 18 s)."""
    size, files = _size(folder)
    if size <= limit_mib << 20 and files <= PROGRAM_FILES:
        return ok, message, detail
    for entry in list(folder.iterdir()):
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()
    if files > PROGRAM_FILES:
        return False, f"the build made over {PROGRAM_FILES} files and folders, the limit of a program", {}
    return False, f"the build is {size / (1 << 20):.0f} MiB, over the {limit_mib} MiB limit of a program", {}


def _size(folder: Path) -> tuple[int, int]:
    """(bytes, number) of the entries beneath a folder, files and folders (links not followed), each
    its size or the disk it takes, whichever is more (breaker 50d: 200,000 empty folders were 0 bytes
    and 0 files, and 787 MiB of disk), counted no further than just past PROGRAM_FILES."""
    total, count = 0, 0
    for parent, dirs, files in os.walk(folder):
        for name in dirs + files:
            count += 1
            if count > PROGRAM_FILES:
                return total, count
            try:
                info = os.lstat(os.path.join(parent, name))
            except OSError:
                continue
            total += max(info.st_size, info.st_blocks * 512)
    return total, count


def _mark_used(folder: Path) -> None:
    """The time of a build's last use, which eviction goes by: its folder's modification time."""
    try:
        os.utime(folder)
    except OSError:
        pass


def evict(builds: Path, limit: int, spare: Path | None = None) -> None:
    """Keep the builds under `limit` bytes: remove the least recently used first, never one used in the
    last IN_USE_SECONDS (a grading may be running it) while the cache is under twice the limit, nor
    `spare` (the build just made, which its caller is about to use: breaker 54c F4, a precompiled header
    over half a small cap removed itself); and remove unfinished builds older than STALE_SECONDS."""
    now = time.time()
    found = []  # (last use, bytes, folder)
    for shelf in _folders(builds):
        for entry in _folders(shelf):
            try:
                used = entry.stat().st_mtime
            except OSError:  # removed meanwhile by another judge
                continue
            if entry.name.startswith(".building-"):
                if now - used > STALE_SECONDS:
                    shutil.rmtree(entry, ignore_errors=True)
                continue
            found.append((used, _size(entry)[0], entry))
    total = sum(size for _, size, _ in found)
    for used, size, entry in sorted(found):
        if total <= limit or (now - used < IN_USE_SECONDS and total <= 2 * limit):
            break
        if entry == spare:
            continue
        shutil.rmtree(entry, ignore_errors=True)
        total -= size


def _folders(folder: Path) -> list[Path]:
    try:
        return [entry for entry in folder.iterdir() if entry.is_dir() and not entry.is_symlink()]
    except OSError:
        return []


def _trusted_outcome(folder: Path) -> Outcome | None:
    """The recorded outcome of a build folder, while nothing in it changed or can be changed by others."""
    outcome = _read_outcome(folder)
    if outcome is None:
        return None
    try:
        recorded = json.loads((folder / "outcome.json").read_text())["files"]
        return outcome if verified(folder, dict(recorded), unhashed={"outcome.json"}) else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def verified(folder: Path, hashes: dict[str, str], unhashed: set[str] = frozenset()) -> bool:
    """Whether a folder of trusted state (a build, a cluster bundle) is as the judge wrote it: it holds
    exactly these files (relative path -> SHA-256; `unhashed` may be there too), and it and every
    entry in it is owned by this user, writable by no one else, and not a link."""
    try:
        if not private(folder):
            return False
        entries = list(folder.rglob("*"))
        present = {str(path.relative_to(folder)) for path in entries if path.is_file()} - set(unhashed)
        if set(hashes) != present or not all(private(path) for path in entries):
            return False
        return all(_sha256(folder / name) == value for name, value in hashes.items())
    except OSError:
        return False


def make_private(folder: Path) -> None:
    """Everything beneath `folder` writable by no one else, whatever the umask."""
    for path in folder.rglob("*"):
        if not path.is_symlink():
            path.chmod(path.stat().st_mode & ~0o022)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _read_outcome(folder: Path) -> Outcome | None:
    try:
        data = json.loads((folder / "outcome.json").read_text())
    except (OSError, ValueError):
        return None
    return Outcome(bool(data["ok"]), str(data["message"]), dict(data["detail"]), folder)


def _helper_stopped(message: str) -> bool:
    """The driver outlived a helper killed at a limit (g++ exits 4, 'Killed signal terminated program
    cc1plus', or 'CPU time limit exceeded signal ...'); or the helper ran out of memory. Either way the
    limits stopped it: another standard would fare no better, so it is never retried."""
    return "signal terminated program" in message or "out of memory allocating" in message


def run_confined(argv: list[str], folder: Path, readable: list[str], env: dict[str, str],
                 limits: CompileLimits | None = None, until: float | None = None,
                 builds: tuple[str, ...] = ()) -> tuple[int | None, str]:
    """Run a compiler in `folder` under the limits and Landlock, its process group killed at the wall
    bound or at `until` (the build's `deadline`), whichever comes first; (exit status or None when it
    was stopped at a limit, its first messages). A compile stopped at the wall bound with less CPU
    than STARVED_SHARE of the time it ran was starved by a busy machine: BuildFault (IE, not kept),
    as when the compiler cannot be started; one stopped as idle (IDLE_AFTER) is NotKept (CE, not kept);
    else nothing the compiler does raises. `builds` are folders of the cache the compiler may read (a
    precompiled header), which the judge's folders otherwise hide."""
    limits = limits or COMPILE_LIMITS
    started = time.monotonic()
    end = started + limits.wall_seconds
    if until is not None and until < end:
        end = until
    if end <= started:  # an earlier compile of the build took all its time, stopped by no CPU limit
        raise _busy(0.0, 0.0, limits)
    spec = {"argv": argv, "readable": readable, "hidden": judge_folders(), "folder": str(folder), "env": env,
            "builds": list(builds),
            "judge": os.getpid(),
            "cpu": limits.cpu_seconds, "data": limits.memory_mib << 20, "fsize": limits.file_mib << 20}
    process = subprocess.Popen([sys.executable, "-S", "-B", "-P", "-c", LAUNCH, json.dumps(spec)],
                               cwd=folder, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, start_new_session=True, close_fds=True,
                               env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"})
    kept = bytearray()
    fd = process.stdout.fileno()
    stopped, cpu, waited = False, None, None  # at the wall bound: its processes' CPU, their time waiting for one
    idle, activity, look = None, Activity(process.pid, started), started + LOOK_EVERY  # (idle: when stopped as idle)
    try:
        while True:
            now = time.monotonic()
            remaining = end - now
            if remaining <= 0:
                stopped, cpu, waited = True, _group_cpu(process.pid), _group_waited(process.pid)
                break
            if now >= look:
                look, active = now + LOOK_EVERY, activity.look(now)
                if active is not None and now - started >= IDLE_AFTER and active < IDLE_SHARE * (now - started):
                    idle, stopped = (active, now - started), True
                    break
            if not ready_to_read([fd], min(remaining, max(0.0, look - now))):
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            kept += chunk[: max(0, limits.message_bytes - len(kept))]
    finally:
        if process.poll() is None:  # stopped at the bound, or the judge interrupted
            _stop_supervisor(process)
        try:
            os.killpg(process.pid, signal.SIGKILL)  # the compiler's helpers too, finished or not
        except (ProcessLookupError, PermissionError):
            pass
        status = process.wait()
        process.stdout.close()
        if stopped or status == -signal.SIGKILL:  # (a compile that ended by itself had waited for its helpers)
            _await_group_end(process.pid)
    message = kept.decode("utf-8", "replace")
    too_large = status == -signal.SIGXFSZ or "File size limit exceeded" in message
    if stopped or too_large or status in (-signal.SIGKILL, -signal.SIGXCPU) or _helper_stopped(message):
        stopped = True
    if status == LAUNCH_FAILED:
        raise BuildFault(f"cannot start the compiler: {message.strip()[-500:]}")
    ran = time.monotonic() - started
    starved = cpu is not None and cpu < STARVED_SHARE * ran and (waited is None or 2 * waited > ran - cpu)
    if starved and not too_large and not _helper_stopped(message):  # (one that slept by itself: CE, breaker 50d)
        raise _busy(cpu, ran, limits)
    if too_large:  # first, as what a contestant reads (the driver calls it an internal compiler error)
        message = f"error: the program is over the {limits.file_mib} MiB limit (the compiler was stopped when a " \
                  f"file it wrote reached it)\n{message}"
    elif idle:
        raise NotKept(f"{message}\n(the compiler was stopped: it ran or waited for a CPU {idle[0]:.1f} s of the "
                      f"{idle[1]:.0f} s it took; a compiler does not sleep)")
    elif stopped:
        message = _stopped_message(message, limits)
    return (None if stopped else status), message


def _stop_supervisor(process: subprocess.Popen, patience: float = 5.0) -> None:
    """Have the compile's supervisor kill every process of the compile, those that left its process
    group included (its SIGTERM handler), before the group is killed: a SIGKILL of the group alone
    would leave what left it running."""
    try:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=patience)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        pass


def _group_stats(group: int) -> list[tuple[str, list[bytes]]]:
    """(pid, the /proc stat fields after the name) of each process of a process group."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as handle:
                fields = handle.read().rpartition(b")")[2].split()
        except OSError:  # ended meanwhile
            continue
        if len(fields) > 14 and int(fields[2]) == group:  # state, ppid, pgrp
            found.append((entry.name, fields))
    return found


def _group_cpu(group: int) -> float:
    """CPU seconds the processes of a process group have used (a compiler and its helpers), with the
    children they reaped: read from /proc before the group is killed."""
    return sum(_cpu(fields) for _, fields in _group_stats(group))


def _cpu(fields: list[bytes]) -> float:
    """CPU seconds of a process (all its threads) with what it reaped of its children, from its stat
    fields (utime, stime, cutime, cstime)."""
    return sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _group_waited(group: int) -> float | None:
    """Seconds the threads of a process group's live processes spent ready to run but waiting for a
    CPU: a starved compile waited, one that slept did not. None where the kernel does not say."""
    if not _has_schedstat():
        return None
    return sum(waited for pid, _ in _group_stats(group) for _, waited in _thread_waits(pid))


def _has_schedstat() -> bool:
    return os.path.exists("/proc/self/schedstat")


def _thread_waits(pid: str) -> list[tuple[str, float]]:
    """(thread id, seconds it has waited for a CPU) of each thread of a process, from each thread's own
    schedstat (its second field): the process's own file says its main thread's alone, and rustc works
    in another thread (breaker 53b F2). Empty once the process ended."""
    found = []
    try:
        threads = list(os.scandir(f"/proc/{pid}/task"))
    except OSError:
        return found
    for thread in threads:
        try:
            with open(f"{thread.path}/schedstat", "rb") as handle:
                found.append((thread.name, int(handle.read().split()[1]) / 1e9))
        except (OSError, IndexError, ValueError):  # (ended meanwhile)
            continue
    return found


class Activity:
    """How long a compile has been running or waiting for a CPU, looked at now and then: each interval
    between two looks counts as active for the CPU its processes used in it plus the longest any one
    thread waited for a CPU in it, at most the interval (so the compile's wall time when any of it ran
    or waited). Their CPU as the kernel sums it: each live process's, all threads, with what it reaped
    of its children, so an ended process counts once (breaker 53b F1: with each ended process's last
    figures kept too, a chain of 130 processes that each reaped the same burnt second counted it 130
    times). Each thread's waits are its own (/proc/PID/task/TID/schedstat: a process's own file says
    its main thread's alone, and rustc works in a second one, breaker 53b F2); their longest, not their
    sum (breaker 53c H1: 300 processes woken at once each waited for those ahead, 275 s of waits in
    2.6 s on 0.3 s of CPU, and a compile that then slept held its place to the wall bound)."""

    def __init__(self, group: int, started: float):
        self.group, self.when, self.active = group, started, 0.0
        self.cpu, self.waits = 0.0, {}

    def look(self, now: float) -> float | None:
        """The compile's active seconds so far; None where the kernel does not say how long a thread
        waited."""
        if not _has_schedstat():
            return None
        cpu, waits = 0.0, {}
        for pid, fields in _group_stats(self.group):
            cpu += _cpu(fields)
            for thread, waited in _thread_waits(pid):
                waits[f"{pid}.{fields[19].decode()}/{thread}"] = waited  # (pid and start time: a pid used again is another)
        longest = max((waited - self.waits.get(key, 0.0) for key, waited in waits.items()), default=0.0)
        self.active += min(now - self.when, max(0.0, cpu - self.cpu) + max(0.0, longest))
        self.when, self.cpu, self.waits = now, max(cpu, self.cpu), waits
        return self.active


def _await_group_end(group: int, patience: float = 10.0) -> None:
    """Wait until the killed group's processes (cc1plus under g++) have died: on a busy machine a
    SIGKILLed process runs on for a while before it is scheduled to die, still holding its files and
    its memory. Zombies are dead; `patience` bounds the wait should one never be scheduled."""
    end = time.monotonic() + patience
    while any(fields[0] != b"Z" for _, fields in _group_stats(group)) and time.monotonic() < end:
        time.sleep(0.02)


def _busy(cpu: float, ran: float, limits: CompileLimits) -> BuildFault:
    """A compile stopped at the wall bound while the CPU went mostly elsewhere: on a quiet machine it
    would have ended, or met its CPU limit (CE), within the bound, so it says nothing of the solution."""
    had = f"the compiler had {cpu:.1f} s of CPU in the {ran:.1f} s it ran" if ran > 0 else \
        "the compiles before this one took all of it"
    return BuildFault(f"the machine was too busy to compile it: stopped at the build's {limits.wall_seconds:g} s "
                      f"wall bound, {had} (its limit: {limits.cpu_seconds} s of CPU); not kept: the next run "
                      f"compiles it again")


def _stopped_message(message: str, limits: CompileLimits) -> str:
    return f"{message}\n(the compiler was stopped at its limits: {limits.cpu_seconds} s of CPU, " \
           f"{limits.wall_seconds:g} s of wall time for the whole build, {limits.memory_mib} MiB)"


def first_errors(message: str, limit_lines: int = 30, limit_chars: int = 4000) -> str:
    """The start of a compiler's messages, from its first error on (what a contestant reads)."""
    lines = message.splitlines()
    start = next((k for k, line in enumerate(lines) if "error" in line.lower()), 0)
    # keep the "In file included from" / "In function" context just above the first error
    while start > 0 and lines[start - 1].rstrip().endswith(":") and not lines[start - 1].startswith(" "):
        start -= 1
    text = "\n".join(lines[start:start + limit_lines])
    return text[:limit_chars]

