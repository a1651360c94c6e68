"""What a compiler says about its version, asked once per installed binary and remembered in the
cache folder.

Each result is recorded with its compiler's version (the history's machine key: a new g++ or javac
can change a verdict), `doctor` shows every one, and `javac -version` starts a JVM: asking each time
cost a quarter of a second, more than grading a Python solution's examples. The answer is kept while the binary's file is the
same one (device, inode, size, modification and change times: an upgrade replaces the file, and a
change time cannot be set back), in a file that is used only while it is this user's and writable by
no one else (a planted version would name builds as another compiler's).
"""

from __future__ import annotations

import json
import os
import subprocess

from ..cachedir import cache_root, keep, private

VERSIONS_FILE = "versions.json"
KEPT = 64  # answers remembered; the oldest go first (compilers upgraded or removed)


def version_output(argv: list[str], timeout: float) -> tuple[str, str] | None:
    """(stdout, stderr) of `argv` (its first item an absolute path), remembered while the file it names (links followed) is
    unchanged; None when it cannot be run."""
    try:
        info = os.stat(argv[0])
    except OSError:
        return None
    key = json.dumps([argv, info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns])
    known = _remembered()
    if key in known:
        return tuple(known[key])
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.SubprocessError):
        return None
    known[key] = [done.stdout, done.stderr]
    _remember(dict(list(known.items())[-KEPT:]))
    return done.stdout, done.stderr


def _remembered() -> dict:
    path = cache_root() / VERSIONS_FILE
    try:
        if not private(path):
            return {}
        known = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    valid = isinstance(known, dict) and all(isinstance(value, list) and len(value) == 2 and
                                            all(isinstance(part, str) for part in value) for value in known.values())
    return known if valid else {}


def _remember(known: dict) -> None:
    keep(cache_root() / VERSIONS_FILE, json.dumps(known).encode())
