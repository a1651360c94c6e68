"""The judge's cache folder, and the test every file read from it passes.

What is kept there (compiled builds, compilers' versions, parsed YAML) is used only while it is this
user's and writable by no one else: a file another user could plant would decide a verdict.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


def cache_root() -> Path:
    """$JUDGE_CACHE, else $XDG_CACHE_HOME/judge, else ~/.cache/judge."""
    configured = os.environ.get("JUDGE_CACHE")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "judge"


def private(path: Path) -> bool:
    """Owned by this user, writable by no one else, and not a link."""
    info = os.lstat(path)
    return info.st_uid == os.getuid() and not info.st_mode & 0o022 and not stat.S_ISLNK(info.st_mode)


def keep(path: Path, data: bytes) -> None:
    """Write a file of the cache whole and rename it into place, in a folder only this user may
    enter: a reader sees the old file or the new one. A cache that cannot be written only means
    doing the work again next time."""
    import tempfile  # (here: most runs keep nothing, and its import is 2 ms of every start)

    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        pass


def kept_text(path: Path, key: str) -> str | None:
    """What keep_text() kept at `path` under `key` (one line); None when nothing is, another key
    is, or the file is not private()."""
    try:
        if private(path):
            kept_key, _, text = path.read_text(encoding="utf-8").partition("\n")
            if kept_key == key:
                return text
    except (OSError, ValueError):
        pass
    return None


def keep_text(path: Path, key: str, text: str) -> None:
    """Keep `text` under `key` (one line) for kept_text()."""
    keep(path, f"{key}\n{text}".encode())


def stamps(paths) -> str:
    """The files as they stand, one line: each one's path, size, modification and change times (an
    edit, a replaced file or one written back with its old time all change it)."""
    return " ".join(f"{path}:{info.st_size}:{info.st_mtime_ns}:{info.st_ctime_ns}"
                    for path, info in ((path, os.stat(path)) for path in paths))
