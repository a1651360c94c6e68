"""The one definition of what the judge and its zygotes say to each other, and of the child's channels.

Imported by both sides of the trust boundary (the judge's worker handle, the zygote and the code
that runs in a confined child), so it imports nothing but the standard library.

The zygote first sends {"ready": true, "baseline_kib", "problems", "bounds"}. Then one JSON line each way:

  {"op": "load", "path", "class", "method", "time_limit", "memory_mib", "idle_limit", "overload_wait",
   "check": bool, "mode": "method" | "stdin" | "interactive", "source_limit", "program"?, "output_limit_mib"?,
   "protect": [folders no child may read: the problem's project], "entry"?, "include"?}
      -> {"ok": true} (with check, also "facts" of a child that only compiles and loads the solution)
      or {"ok": false, "compile_error": text} (not a regular file, over the source limit, unreadable)
  {"op": "run", "args": [...]}            (a method's test)
  {"op": "run", "input": base64}          (a stdin program's test)
  {"op": "run", "interactor": {"argv", "env", "cwd", "feedback", "cpu_limit", "memory_mib", "wall_limit", "stderr"}}
                                          (an interactive program's test, "mode": "interactive")
      -> the facts of one test (verdicts.RunFacts.from_message reads them)
  any request -> {"internal_error": text} when the zygote itself failed (the judge's fault: IE)

An interactive test's facts also hold "interactor": {"exit_code", "signal", "first" (it ended while the
program ran), "timed_out"}; its program's 0 and 1 are pipes to the interactor (engine/interaction.py).

"entry" (Python): the file a multi-file program starts from, in the folder "path" (or beside the one
file "path"); "include": a folder of files added to it (a package's include/python3/). The zygote
reads them by read_tree's rules and its child imports them from memory (engine/child.FolderImports).

"program" (a compiled language, built by tcjudge.languages): {"argv", "env", "readable", "profile",
"stdio", "ready", "result_channel", "crash_channel", "data_extra_mib", "stack_mib", "cpu_extra", "serves"}; see
engine/solution.Program.

A child's channels: the result channel on RESULT_FD (one JSON line: {"kind": "return" | "error" |
"exit" | "loaded" | "missing" | "compile_error", ...}), a method's arguments on ARGS_FD (JSON, closed
when complete), what it prints on 1 and 2 (a stdin program: its input on 0 and its answer on 1).
A runtime that says when it is up (the JVM) first writes READY_LINE on the result channel. Every
channel is close-on-exec until the child moves it to its number; what a solution's process keeps of
them, in each language and mode, and why: docs/security.md, "Descriptors".

The crash channel on CRASH_FD (non-blocking: a crashing process never waits on it) carries what a
process says about its own crash, read by the zygote only after the kernel reported a death by a
signal ("crash" in the facts, at most CRASH_CAP bytes): CPython's faulthandler traceback for a Python
solution, STACK_LIMIT_LINE from the C++ runtime's SIGSEGV handler. It is the solution's to forge: the
judge reads it as a hint beside the kernel's facts, never as one (verdicts.py).
"""

from __future__ import annotations

import os
import re
import select
import stat
from collections import namedtuple

RESULT_FD = 3
ARGS_FD = 4
CRASH_FD = 5
READY_LINE = b"ready\n"

OUTPUT_CAP = 8 * 1024  # bytes of printed output kept per test; the rest is discarded by the kernel
ANSWER_CAP = 64 * 1024 * 1024  # bytes of a stdin program's standard output kept; more is an output limit
SOURCE_LIMIT = 256 * 1024  # default bytes of a solution's source (judge.py --source-limit KIB); larger is CE
REPORT_CAP = 1024 * 1024  # a result larger than this (far above any TopCoder return) is cut off: RE
CRASH_CAP = 64 * 1024  # bytes of a crash's evidence kept: what a pipe holds (CPython's 100 frames fit)
# What the C++ runtime's SIGSEGV handler writes on the crash channel when the fault address lies
# where only a stack at its limit reaches (runtime/tcjudge.hpp: watch_stack).
STACK_LIMIT_LINE = b"tcjudge: SIGSEGV at the stack's limit\n"
# An interactor's exit status (the Kattis output validator's): 42 accepts, 43 rejects; 127 is ours for
# an interactor whose exec failed. Any other status, or a signal, is the interactor's fault.
ACCEPTED, REJECTED, NOT_STARTED = 42, 43, 127
ADDRESS_SPACE_FLOOR = 16 << 30  # bytes of address space a test may map, at least (Limits.address_space)

# How the process that runs a solution marks a returned object that is not plain data (a set, a
# dict, a numpy number, an object of the solution's own class): {UNSUPPORTED: "its type name"}.
UNSUPPORTED = "$unsupported"

# A multi-file solution (a folder): the names a file or folder in it may have (they reach compilers'
# command lines and import statements), how deep it may nest and how many files it may hold.
TREE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]{0,99}\Z")
TREE_DEPTH = 4
TREE_FILES = 100
TREE_SKIPPED = ("__pycache__",)  # and every name starting with a dot (.git, editors' files)


class Limits(namedtuple("Limits", "time memory_mib")):
    """A problem's limits (CPU seconds, MiB) and the two wall-clock bounds derived from them
    (docs/verdicts.md).

    A named tuple, as every value the zygote's side defines: dataclasses (with inspect, ast, dis and
    tokenize beneath it) would add 2 MiB to the zygote, and every fork copies its page tables."""

    __slots__ = ()

    @property
    def idle(self) -> float:
        """Seconds a test may spend neither running nor waiting for a CPU (sleeping, blocked,
        stopped): it only exists to stop solutions that wait for nothing."""
        return 2 * self.time + 1

    @property
    def overload(self) -> float:
        """Seconds a test may wait for a CPU before the judge gives up on the machine (IE): far
        beyond what a solution's own threads can make it wait before its CPU limit stops it."""
        return max(30.0, 10 * self.time)

    @property
    def address_space(self) -> int:
        """RLIMIT_AS in bytes: far above any honest need (a JVM reserves a few GiB, a thread's stack
        is reserved at the memory limit), so it decides no verdict that memory does not, but it
        bounds the kernel memory that maps cost without a memory cgroup: page tables at most 1/512
        of it (32 MiB at 16 GiB), however sparse the mapping."""
        return max(ADDRESS_SPACE_FLOOR, 16 * (self.memory_mib << 20))

    @property
    def wall_bound(self) -> float:
        """The longest a test can take by these rules (CPU twice: once used, once undercounted
        idle time of threads running side by side)."""
        return 2 * self.time + self.idle + self.overload


def ready_to_read(fds: list[int], timeout: float) -> list[int]:
    """Which of `fds` can be read, or have ended, within `timeout` seconds: select()'s answer without
    its bound on descriptor numbers (1024): `judge serve` holds one per connection, and select()
    refused its pipes and pidfds with ValueError, an IE for every test. A closed descriptor is
    returned (POLLNVAL), so that reading it fails as it did."""
    poller = select.poll()
    for fd in fds:
        poller.register(fd, select.POLLIN)
    return [fd for fd, _ in poller.poll(max(0.0, timeout) * 1000)]


class SourceError(Exception):
    """The file cannot be a solution at all (not a regular file, over the size limit): CE."""


CONSTANT = re.compile(rb"\{\{([a-zA-Z_][a-zA-Z0-9_]*)(?:\.([a-zA-Z_][a-zA-Z0-9_]*))?\}\}")


def substitute_constants(data: bytes, constants: dict[str, str]) -> bytes:
    """`data` with each 2025-09 constant sequence (`{{name}}`, `{{name.variant}}`) that `constants`
    defines replaced by its value; undefined ones are left as they are (problems/constants.py)."""
    if not constants or b"{{" not in data:
        return data

    def value(match: re.Match) -> bytes:
        name = match.group(1).decode() + (f".{match.group(2).decode()}" if match.group(2) else "")
        return constants[name].encode() if name in constants else match.group()

    return CONSTANT.sub(value, data)


def read_source(path: str | os.PathLike, limit: int) -> bytes:
    """At most `limit` bytes of a regular file (no device, fifo or link to one); SourceError if not,
    OSError if it cannot be read."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise SourceError("the solution is not a regular file")
        data = os.read(fd, limit + 1)
        if len(data) > limit:
            raise SourceError(f"the source is over the {limit // 1024} KiB limit")
        return data
    finally:
        os.close(fd)


def read_tree(folder: str | os.PathLike, limit: int) -> dict[str, bytes]:
    """Every file of a multi-file solution (relative POSIX path -> bytes), at most `limit` bytes in all.

    The folder's content is the solution's: nothing in it is followed out of it. A link, a device or
    a fifo, a name outside TREE_NAME (a leading dash would be an option to a compiler), a folder
    deeper than TREE_DEPTH or more than TREE_FILES files is a SourceError naming it; each level is
    opened relative to its parent without following links, so a swap under the reader changes nothing.
    Names starting with a dot and __pycache__ are left out."""
    files: dict[str, bytes] = {}
    top = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        _read_level(top, "", files, limit, 0)
    finally:
        os.close(top)
    return files


def check_tree_name(name: str, shown: str) -> None:
    """SourceError (naming `shown`, the path) unless `name` is one a multi-file solution may hold:
    `judge serve` refuses a zip by this rule at submit, where it was taken and then judged CE. The
    message names what is refused."""
    if TREE_NAME.match(name):
        return
    odd = re.search(r"[^A-Za-z0-9_.+-]", name)
    fault = (f"{described(odd.group())} is refused" if odd else "longer than 100 characters" if name[:1].isalnum()
             or name[:1] == "_" else "its first character is refused")
    raise SourceError(f"{escaped(shown)[:120]}: a file name the judge does not take in a solution ({fault}: "
                      "ASCII letters, digits, _ . + - only, not first a dot or a dash)")


def escaped(name: str) -> str:
    """A name as a message shows it, quoted: every character but printable ASCII escaped (\\u0301), so
    that a refused name never looks valid (`cafe\\u0301.py`, in NFD as macOS writes it, showed as café.py)."""
    return "'" + "".join(c if " " < c < "\x7f" else f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}"
                         for c in name) + "'"


def described(character: str) -> str:
    """A character as a message names it: U+0301 (COMBINING ACUTE ACCENT)."""
    import unicodedata  # (here: the zygote's side imports this module, and needs it only for a refusal)

    named = unicodedata.name(character, "")
    return f"U+{ord(character):04X}" + (f" ({named})" if named else "")


def _read_level(fd: int, prefix: str, files: dict[str, bytes], limit: int, depth: int) -> None:
    with os.scandir(fd) as entries:
        names = sorted(entry.name for entry in entries)
    for name in names:
        if name.startswith(".") or name in TREE_SKIPPED:
            continue
        shown = prefix + name
        check_tree_name(name, shown)
        flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        try:
            child = os.open(name, flags, dir_fd=fd)
        except OSError as err:
            if stat.S_ISLNK(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode):
                raise SourceError(f"{shown}: a link, which the judge does not follow out of a solution") from None
            raise err
        try:
            mode = os.fstat(child).st_mode
            if stat.S_ISDIR(mode):
                if depth + 1 >= TREE_DEPTH:
                    raise SourceError(f"{shown}: folders nested deeper than {TREE_DEPTH} levels")
                _read_level(child, shown + "/", files, limit, depth + 1)
                continue
            if not stat.S_ISREG(mode):
                raise SourceError(f"{shown}: not a regular file")
            if len(files) >= TREE_FILES:
                raise SourceError(f"more than {TREE_FILES} files in the solution's folder")
            room = limit - sum(len(data) for data in files.values())
            data = os.read(child, room + 1)
            if len(data) > room:
                raise SourceError(f"the solution's files are over the {limit // 1024} KiB limit")
            files[shown] = data
        finally:
            os.close(child)
