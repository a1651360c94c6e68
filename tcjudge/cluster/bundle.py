"""Problems and solutions travel with the work: a bundle is a folder's (or one file's) bytes named by
their SHA-256, so a worker needs only the judge installed and materialises each bundle on disk once.

The key covers every path and byte, so two different folders can never share a cache entry, and the
worker re-checks it before writing: a damaged or forged bundle is refused, not graded. An entry found
on disk is used only while it is what this worker's user wrote (owned by it, writable by no one else,
no links, every file hashing as the bundle says: the build cache's check); else it is written again.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path, PurePosixPath

from ..languages.build import make_private, verified
from ..protected import protect
from ..protocol import read_tree

SKIPPED_NAMES = {"__pycache__", ".git"}


class BundleError(ValueError):
    """A bundle whose content does not match its key, or whose paths leave its folder."""


def bundle_key(name: str, files: dict[str, bytes]) -> str:
    digest = hashlib.sha256(name.encode() + b"\0")
    for path in sorted(files):
        digest.update(path.encode() + b"\0" + hashlib.sha256(files[path]).digest())
    return digest.hexdigest()


def _bundle(name: str, files: dict[str, bytes]) -> dict:
    return {"key": bundle_key(name, files), "name": name, "files": files}


def pack_folder(folder: Path) -> dict:
    """Every regular file under `folder` (caches and VCS folders left out), keyed by content; the
    folder keeps its name (a problem's slug is its folder's name)."""
    files = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if path.is_file() and not SKIPPED_NAMES.intersection(relative.parts):
            files[f"{folder.name}/{relative.as_posix()}"] = path.read_bytes()
    return _bundle(folder.name, files)


def pack_file(path: Path, limit: int | None = None) -> dict:
    """One file; its name is kept (error messages and class lookup may depend on it). With `limit`,
    at most limit + 1 bytes: enough for the worker to find a source over the limit, as it would here."""
    with open(path, "rb") as handle:
        data = handle.read() if limit is None else handle.read(limit + 1)
    return _bundle(path.name, {path.name: data})


def pack_solution(path: Path, limit: int) -> dict:
    """A solution: one file (pack_file), or a multi-file folder's files as the judge reads them
    (protocol.read_tree: no link followed, no odd name), so a worker grades only what the judge would;
    protocol.SourceError when the folder is refused (its verdict is CE, decided here)."""
    if not path.is_dir():
        return pack_file(path, limit)
    files = read_tree(path, limit)
    return _bundle(path.name, {f"{path.name}/{name}": data for name, data in files.items()})


def cache_root() -> Path:
    """JUDGE_CLUSTER_CACHE, else the user's cache folder: each worker keeps materialised bundles here."""
    explicit = os.environ.get("JUDGE_CLUSTER_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "topcoder-judge" / "cluster"


def materialise(bundle: dict, kind: str, root: Path | None = None) -> Path:
    """The bundle's folder or file (`<root>/<kind>/<key>/<name>`), written on first use.

    Written under a temporary name and renamed into place, so worker processes sharing a cache
    never see a half-written bundle."""
    key, name, files = bundle["key"], bundle["name"], bundle["files"]
    if bundle_key(name, files) != key:
        raise BundleError(f"bundle {name!r} does not match its key {key[:12]}")
    _check_name(name)
    root = root or cache_root()
    protect(root)  # problems and other solutions: no compiler on this worker reads them, wherever they are
    final = root / kind / key
    hashes = {relative: hashlib.sha256(data).hexdigest() for relative, data in files.items()}
    if not verified(final, hashes):
        (root / kind).mkdir(parents=True, exist_ok=True, mode=0o700)
        staging = Path(tempfile.mkdtemp(prefix=".incoming-", dir=root / kind))
        try:
            for relative, data in files.items():
                target = staging / _safe_relative(relative, name)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            make_private(staging)
            _install(staging, final, hashes)
        except OSError:
            if not verified(final, hashes):  # lost a race with another worker process: theirs is the same bytes
                raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return final / name


def _install(staging: Path, final: Path, hashes: dict[str, str]) -> None:
    """Rename `staging` into place. A folder already there stays when it holds these bytes (another
    worker process wrote it meanwhile, and its zygote may be reading it); any other is set aside."""
    try:
        os.rename(staging, final)  # (fails onto a folder that is not empty)
        return
    except OSError:
        if verified(final, hashes):
            return
    _set_aside(final)
    os.rename(staging, final)


def _set_aside(entry: Path) -> None:
    """An entry not to be trusted, out of the way (renamed first: its folder may not be ours to empty)."""
    if not os.path.lexists(entry):
        return
    aside = Path(tempfile.mkdtemp(prefix=".untrusted-", dir=entry.parent)) / entry.name
    try:
        os.rename(entry, aside)
    except FileNotFoundError:  # another worker process set it aside first
        pass
    shutil.rmtree(aside.parent, ignore_errors=True)


def _check_name(name: str) -> None:
    if not name or name in (".", "..") or "/" in name or "\0" in name:
        raise BundleError(f"bad bundle name {name!r}")


def _safe_relative(relative: str, name: str) -> PurePosixPath:
    """A path inside the bundle's top entry: nothing absolute, no `..`, nothing beside `name`."""
    path = PurePosixPath(relative)
    if path.is_absolute() or ".." in path.parts or not path.parts or path.parts[0] != name or "\0" in relative:
        raise BundleError(f"bad path in bundle: {relative!r}")
    return path
