"""A precompiled <bits/stdc++.h> for C++ programs: the same binary from a third of the compile.

Most contest submissions start with `#include <bits/stdc++.h>`, and g++ parses its hundred headers
at every compile: the ten C++ submissions of GCPC 2021's joinedsessions took 17.2 s to compile here
(-O2 -static), and 7.7 s with a precompiled header (g++'s .gch) made with the same standard and flags. g++
uses it only where it is valid (the file's first include, made under the same options and macros);
anywhere else it reads the header's text beside it, which is `#include_next` of the real one: what
it would have read. The program is the same, byte for byte (tests/test_cpp_header.py compares).

It costs about three compiles to make (5 s of CPU, 120 MiB of cache), so it is made only once a
cache has been asked for it WANTED_BEFORE_MAKING times, by one process at a time (another compiles
without it meanwhile, never waiting), as a build of the cache: confined as any compile, its files
verified once per process and then checked as private before each use, evicted as any.
Only a standard-input program gets it: a method's file is compiled after our runtime, where a
precompiled header can no longer apply.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
from pathlib import Path

from ..cachedir import cache_root, keep_text, kept_text, private
from .base import Toolchain
from .build import SYSTEM_READABLE, BuildFault, CompileLimits, cached_build, deadline, first_errors, run_confined

HEADER = "bits/stdc++.h"
WANTED_BEFORE_MAKING = 3  # compiles that would have used it: then it is made (it costs about three)
LIMIT_MIB = 256  # the .gch is about 120 MiB (g++ 12): the size and file limits of its build
USES_HEADER = re.compile(rb"#\s*include\s*<bits/stdc\+\+\.h>")
_made: dict[tuple, tuple[Path, int, int]] = {}  # this process's verified headers: folder, size, mtime of the .gch


def header_folder(toolchain: Toolchain, standard: str, flags: tuple[str, ...], files: dict[str, bytes]) -> str | None:
    """The folder to give g++ with -isystem for these files, or None: none of them includes the header,
    it is not yet wanted often enough, another process is making it, or it could not be made."""
    if not any(USES_HEADER.search(data) for data in files.values()):
        return None
    key = (toolchain.version, toolchain.programs["g++"], standard, flags)
    known = _made.get(key)
    if known and _unchanged(*known):
        return str(known[0])
    if not _wanted(key):
        return None
    try:
        with _Maker() as mine:
            if not mine:
                return None
            outcome = cached_build(["stdc++.h", *key], lambda folder: _make(toolchain, standard, flags, folder),
                                   limit_mib=LIMIT_MIB)
    except (BuildFault, OSError):  # (the judge's trouble making it: compiled without it)
        return None
    if not outcome.ok:
        return None
    made = outcome.folder / f"{HEADER}.gch"
    info = made.stat()
    _made[key] = (outcome.folder, info.st_size, info.st_mtime_ns)
    return str(outcome.folder)


def _make(toolchain: Toolchain, standard: str, flags: tuple[str, ...], folder: Path) -> tuple[bool, str, dict]:
    """Precompile the real header (found through g++'s own search, as a file including it would) into
    folder/bits/stdc++.h.gch, beside the text g++ reads where the .gch does not apply."""
    (folder / "bits").mkdir()
    (folder / "including.hpp").write_text(f"#include <{HEADER}>\n")
    argv = [toolchain.programs["g++"], f"-std={standard}", *flags, "-x", "c++-header", "including.hpp",
            "-o", f"{HEADER}.gch"]
    limits = CompileLimits(file_mib=LIMIT_MIB)
    status, message = run_confined(argv, folder, list(SYSTEM_READABLE), {"PATH": "/usr/bin:/bin", "LC_ALL": "C",
                                   "TMPDIR": str(folder)}, limits, until=deadline(limits))
    (folder / "including.hpp").unlink()
    (folder / HEADER).write_text(f"#include_next <{HEADER}>\n")
    return status == 0, first_errors(message) if status != 0 else "", {}


def _unchanged(folder: Path, size: int, mtime: int) -> bool:
    """Still the .gch this process verified, in a folder only this user can write."""
    try:
        info = (folder / f"{HEADER}.gch").stat()
        return private(folder) and private(folder / "bits") and (info.st_size, info.st_mtime_ns) == (size, mtime)
    except OSError:
        return False


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
