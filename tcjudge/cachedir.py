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
