"""A precompiled <bits/stdc++.h> for C++ programs: the same binary from a third of the compile.

Most contest submissions start with `#include <bits/stdc++.h>`, and g++ parses its hundred headers
at every compile: the ten C++ submissions of GCPC 2021's joinedsessions took 17.2 s to compile here
(-O2 -static), and 7.7 s with a precompiled header (g++'s .gch) made with the same standard and flags. g++
uses it only where it is valid (the file's first include, made under the same options and macros);
anywhere else it reads the header's text beside it, which is `#include_next` of the real one: what
it would have read. The program is the same, byte for byte (tests/test_cpp_header.py compares).

It costs about three compiles to make (5 s of CPU, 120 MiB of cache), so it is made only once a
cache has been asked for it WANTED_BEFORE_MAKING times, with room to spare on the disk, by one process
at a time (another compiles without it meanwhile, never waiting), as a build of the cache: confined as
any compile, its files verified by hash once per process and by their sizes and times before each use,
made again when a header it was made from changed, evicted as any.
Only a standard-input program gets it: a method's file is compiled after our runtime, where a
precompiled header can no longer apply. A program can tell at compile time whether it has one
(`__has_include(<bits/stdc++.h.gch>)`), as it can tell the compiler's version: one that does so may
act on it (breaker 54c F1); nothing else about a program changes.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import time
from pathlib import Path

from ..cachedir import cache_root, keep_text, kept_text, private
from .base import Toolchain
from .build import (PROGRAM_LIMIT_MIB, SYSTEM_READABLE, BuildFault, CompileLimits, NotKept, cached_build, deadline,
                    first_errors, run_confined)

HEADER = "bits/stdc++.h"
WANTED_BEFORE_MAKING = 3  # compiles that would have used it: then it is made (it costs about three)
LIMIT_MIB = 256  # the .gch is about 120 MiB (g++ 12): the size and file limits of its build
# Made only with this much free beside it: the header took a nearly full disk's last 120 MiB, and the
# compiles after it were IE, "under 64 MiB free" (breaker 54c F2)
FREE_MIB = LIMIT_MIB + 4 * PROGRAM_LIMIT_MIB
USES_HEADER = re.compile(rb"#\s*include\s*<bits/stdc\+\+\.h>")
DEPENDS = "depends.json"  # the headers the .gch was made from, as they stood: (path, size, mtime)
_made: dict[tuple, tuple[Path, list]] = {}  # this process's checked headers: folder, its files as they stood
# made in vain by this process: not tried again here before then (breaker 54e F-b: a failure for want of disk,
# remembered for good, left a long-lived process without it once the disk had room again)
_failed: dict[tuple, float] = {}
RETRY_SECONDS = 600.0


def header_folder(toolchain: Toolchain, standard: str, flags: tuple[str, ...], files: dict[str, bytes]) -> str | None:
    """The folder to give g++ with -isystem for these files, or None: none of them includes the header,
    it is not yet wanted often enough, another process is making it, or it could not be made."""
    if not any(USES_HEADER.search(data) for data in files.values()):
        return None
    key = (toolchain.version, toolchain.programs["g++"], standard, flags)
    known = _made.get(key)
    if known and _stats(known[0]) == known[1] and not _depends_changed(known[0]):
        return str(known[0])  # (its headers looked at each time: breaker 54e F-a, a long-lived process kept a stale one)
    if time.monotonic() < _failed.get(key, 0.0) or not _wanted(key):
        return None
    try:
        with _Maker() as mine:
            if not mine or shutil.disk_usage(cache_root()).free < FREE_MIB << 20:
                return None
            outcome = _current(key, lambda folder: _make(toolchain, standard, flags, folder))
    except (BuildFault, OSError):  # (the judge's trouble making it: compiled without it)
        return None
    if not outcome.ok:
        _failed[key] = time.monotonic() + RETRY_SECONDS
        return None
    _made[key] = (outcome.folder, _stats(outcome.folder))
    return str(outcome.folder)


def _current(key: tuple, make):
    """The kept header, made again if a header it was made from changed since (g++ does not check: a
    .gch made before a glibc upgrade that left g++'s version line as it was is used as it stands,
    breaker 54c F7)."""
    outcome = cached_build(["stdc++.h", *key], make, limit_mib=LIMIT_MIB)
    if outcome.ok and _depends_changed(outcome.folder):
        shutil.rmtree(outcome.folder, ignore_errors=True)
        outcome = cached_build(["stdc++.h", *key], make, limit_mib=LIMIT_MIB)
    return outcome


def _make(toolchain: Toolchain, standard: str, flags: tuple[str, ...], folder: Path) -> tuple[bool, str, dict]:
    """Precompile the real header (found as a file including it finds it) into folder/bits/stdc++.h.gch,
    beside the text g++ reads where the .gch does not apply, and what it was made from (DEPENDS). The
    .gch is made from the header's own path, so that a message about a line in it names the chain of
    headers a compile without it names (made from a file including it, "from including.hpp:1:"
    replaced the contestant's file at the end of that chain: breaker 54c F5)."""
    (folder / "bits").mkdir()
    (folder / "including.hpp").write_text(f"#include <{HEADER}>\n")
    base = [toolchain.programs["g++"], f"-std={standard}", *flags]
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "TMPDIR": str(folder)}
    limits = CompileLimits(file_mib=LIMIT_MIB)
    until = deadline(limits)
    status, message = run_confined([*base, "-x", "c++", "-M", "-MF", "depends.d", "including.hpp"], folder,
                                   list(SYSTEM_READABLE), env, limits, until=until)
    depends = (folder / "depends.d").read_text().replace("\\\n", " ").split()[2:] if status == 0 else []
    real = next((path for path in depends if path.endswith(f"/{HEADER}")), None)  # (after stdc-predef.h)
    if status == 0 and real:
        status, message = run_confined([*base, "-x", "c++-header", real, "-o", f"{HEADER}.gch"], folder,
                                       list(SYSTEM_READABLE), env, limits, until=until)
    elif status == 0:
        status, message = 1, f"g++ finds no {HEADER} of its own"
    for made in ("including.hpp", "depends.d"):
        (folder / made).unlink(missing_ok=True)
    if status != 0:
        if "No space left" in message or shutil.disk_usage(folder).free < FREE_MIB << 20:
            raise NotKept(f"{HEADER} was not precompiled: the disk is nearly full")  # (made again later)
        return False, first_errors(message), {}
    (folder / HEADER).write_text(f"#include_next <{HEADER}>\n")
    (folder / DEPENDS).write_text(json.dumps(_stamps(depends)))
    return True, "", {}


def _stamps(paths: list[str]) -> list:
    stamps = []
    for path in paths:
        try:
            info = os.stat(path)
            stamps.append([path, info.st_size, info.st_mtime_ns])
        except OSError:
            stamps.append([path, None, None])
    return stamps


def _depends_changed(folder: Path) -> bool:
    try:
        kept = json.loads((folder / DEPENDS).read_text())
        return _stamps([path for path, _, _ in kept]) != kept
    except (OSError, ValueError, TypeError):
        return True


def _stats(folder: Path) -> list | None:
    """Its files as they stand (name, size, modification time), if it and they are this user's alone: a
    change in any, not only the .gch's, and it is checked again (breaker 54c F6: its text was changed
    under a long-lived process, and a program that did not use the .gch read it)."""
    try:
        if not private(folder):
            return None
        stats = []
        for path in sorted(folder.rglob("*")):
            info = path.lstat()
            if not private(path):
                return None
            stats.append((str(path.relative_to(folder)), info.st_size, info.st_mtime_ns))
        return stats
    except OSError:
        return None


def _wanted(key: tuple) -> bool:
    """Count one more compile that would use it; whether enough have (the count is kept in the cache)."""
    name = repr(key)
    path = cache_root() / "builds" / f"stdc++-wanted-{hashlib.sha256(name.encode()).hexdigest()[:16]}"
    kept = kept_text(path, name) or "0"
    count = (int(kept) if kept.isdigit() else 0) + 1
    if count <= WANTED_BEFORE_MAKING:
        keep_text(path, name, str(count))
    return count >= WANTED_BEFORE_MAKING


class _Maker:
    """The right to make it: an exclusive lock, not waited for (False where another process has it)."""

    def __init__(self):
        self.path = cache_root() / "builds" / "stdc++.lock"

    def __enter__(self) -> bool:
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def __exit__(self, *exc) -> None:
        os.close(self.fd)
