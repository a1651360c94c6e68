"""What a recorded result depends on, as the history keys it (reports/history.py): the engine's own
source (engine_version, engine_key), a problem folder's content (problem_hash) and a solution's
(solution_hash). A change of any of them makes earlier results stale."""

from __future__ import annotations

import hashlib
import os
import zlib
from functools import lru_cache
from pathlib import Path

from ..cachedir import cache_root, keep_text, kept_text, stamps
from ..protected import PACKAGE
from ..protocol import TREE_SKIPPED

HARNESS = PACKAGE
# Source that cannot change a verdict: what is printed and written (reports), the command line (option
# parsing in cli.py and the commands' modules), the contest server (its pages, API and store: it grades
# through the run owner) and the setter's tools: an edit of a page must not make every result and kept
# time limit stale (a restart of judge serve timed every package again).
NOT_ENGINE_PARTS = ("reports", "cli.py", "commands", "serve", "setter")
NOT_ENGINE = tuple(HARNESS / part for part in NOT_ENGINE_PARTS)
ENGINE_VERSION_FOLDER = "engine"  # in the cache folder: per installed judge, its files' stamps and their hash


@lru_cache(maxsize=1)
def engine_version() -> str:
    """A hash of every file of the harness, reports and option parsing aside (the languages' runtime
    headers and Java classes included): any change to how a test is run or judged makes every earlier
    result stale. Reading and hashing them (0.7 MB) is a few milliseconds of every start, so the hash
    is kept in the cache folder with the files' stamps (each one's path, size, modification and
    change times), and computed again when any stamp differs."""
    files = _engine_files()
    stamp = hashlib.sha256(stamps(files).encode()).hexdigest()
    kept = kept_text(engine_version_file(), stamp)
    if kept is not None and len(kept) == 16:
        return kept
    digest = hashlib.sha256()
    for path in files:
        with open(path, "rb") as file:
            digest.update(os.path.relpath(path, HARNESS).encode() + b"\0" + file.read() + b"\0")
    version = digest.hexdigest()[:16]
    keep_text(engine_version_file(), stamp, version)
    return version


def engine_version_file() -> Path:
    """One file per copy of the judge (each a folder of its own), so that two never take turns."""
    return cache_root() / ENGINE_VERSION_FOLDER / f"{zlib.crc32(str(HARNESS).encode()):08x}"


def _engine_files() -> list[str]:
    """Every file of the harness but NOT_ENGINE and compiled bytecode, sorted (a walk that never
    enters what it leaves out: this runs at every start)."""
    left_out = {str(path) for path in NOT_ENGINE}
    found = []
    for folder, subfolders, files in os.walk(HARNESS):
        subfolders[:] = [name for name in subfolders
                         if name != "__pycache__" and os.path.join(folder, name) not in left_out]
        found += [path for name in files if (path := os.path.join(folder, name)) not in left_out]
    return sorted(found)


def engine_key(source_limit: int) -> str:
    """The engine and the global options that decide verdicts (a source over --source-limit is CE)."""
    return f"{engine_version()} source-limit {source_limit}"


_HASHED: dict[Path, tuple[tuple, str]] = {}  # folder -> (its files' names, sizes and times, their hash)


def problem_hash(folder: Path) -> str:
    """Every file of the problem folder that can decide a verdict: problem.yaml (limits, checker),
    the tests, a checker; the statement is left out, so editing prose reuses results.

    Read once per process while no file's size or modification time changes: a command asks for
    it once per run it reuses or records (three times for a package whose time limit is computed),
    and a 200-test package took 40 ms to read and hash each time."""
    files = []
    for parts in sorted(_files_below(str(folder))):  # in Path order: part by part
        if parts[-1].startswith(("statement", ".")) or "__pycache__" in parts:
            continue
        relative = "/".join(parts)
        status = os.stat(os.path.join(folder, relative))
        files.append((folder / relative, relative, status.st_size, status.st_mtime_ns))
    signature = tuple(entry[1:] for entry in files)
    known = _HASHED.get(folder)
    if known is not None and known[0] == signature:
        return known[1]
    digest = hashlib.sha256()
    for path, relative, _, _ in files:
        digest.update(relative.encode() + b"\0" + path.read_bytes() + b"\0")
    _HASHED[folder] = (signature, digest.hexdigest()[:16])
    return _HASHED[folder][1]


def _files_below(top: str) -> list[tuple[str, ...]]:
    """The relative path, as parts, of every file below `top` (a link to a file too), as
    Path.rglob("*") finds them: never inside a linked folder (a walk with os.scandir: rglob's
    Path objects took most of a 200-test package's hash)."""
    found = []
    for folder, _, names in os.walk(top):
        prefix = tuple(os.path.relpath(folder, top).split(os.sep)) if folder != top else ()
        found += [prefix + (name,) for name in names if os.path.isfile(os.path.join(folder, name))]
    return found


def solution_hash(path: Path) -> str:
    """What a solution's result depends on: a file's extension and bytes; a folder's (a multi-file
    program, or a submit-answer problem's answers) every entry's path and content, a link by its
    target, so that an edit of any file, a rename, an added link or file makes earlier results stale
    (a link or an odd name is refused when it is graded: its result changes with it too)."""
    try:
        if not path.is_dir():
            return hashlib.sha256(path.suffix.encode() + b"\0" + path.read_bytes()).hexdigest()[:16]
        digest = hashlib.sha256(b"folder\0")
        for entry in sorted(path.rglob("*")):  # rglob does not descend into linked folders
            if any(part in TREE_SKIPPED or part.startswith(".") for part in entry.relative_to(path).parts):
                continue  # what the judge never reads of a folder (protocol.read_tree): __pycache__, .git
            if entry.is_symlink():
                content = b"link\0" + os.fsencode(os.readlink(entry))
            else:
                content = hashlib.sha256(entry.read_bytes()).digest() if entry.is_file() else b"not a file"
            digest.update(os.fsencode(entry.relative_to(path).as_posix()) + b"\0" + content)
        return digest.hexdigest()[:16]
    except OSError:
        return "unreadable"
