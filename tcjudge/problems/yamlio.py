"""Safe YAML loading that keeps line numbers, so every complaint about a file can name its line.

What a file was read into is kept in the cache folder (tcjudge/cachedir.py), in marshal's format,
while the file is the same one (path, device, inode, size, modification and change times) and the
Python the same, one kept file per file read and at most KEPT_FILES of them: a `grade` reads a
problem.yaml per problem and its test files, and importing PyYAML and parsing them cost 25-40 ms of a
300 ms start. yaml is imported only when a file is parsed.
"""

from __future__ import annotations

import marshal
import os
import sys
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..cachedir import cache_root, keep, private
from ..errors import JudgeInputError
from ..record import record

if TYPE_CHECKING:
    import yaml

CACHE_FOLDER = "yaml"
CACHE_FORMAT = 2  # what a cached file holds: (key, what _parse_mapping or _parse_sequence read), marshalled
KEPT_FILES = 2000  # files kept at most (one per file read; a problem has a few)


def _safe_loader():
    """libyaml's parser when PyYAML was built with it (ten times faster on large test files); both
    keep line numbers on every node."""
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@record(frozen=True)
class Located:
    """A value read from a YAML file with the (1-based) line where it starts."""

    value: Any
    line: int


def _compose(path: Path) -> yaml.Node | None:
    import yaml

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise JudgeInputError(f"cannot read file: {err.strerror}", path) from None
    except UnicodeDecodeError:
        raise JudgeInputError("not UTF-8 text", path) from None
    try:
        return yaml.compose(text, Loader=_safe_loader())
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark else None
        raise JudgeInputError(f"malformed YAML: {err.problem or err.context}", path, line) from None
    except yaml.YAMLError as err:
        raise JudgeInputError(f"malformed YAML: {err}", path) from None


def _construct(node: yaml.Node, path: Path) -> Any:
    import yaml

    loader = _safe_loader()("")
    try:
        return loader.construct_object(node, deep=True)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        raise JudgeInputError(f"invalid YAML value: {err.problem}", path, mark.line + 1 if mark else None) from None
    finally:
        loader.dispose()


def load_mapping(path: Path) -> tuple[dict[str, Any], dict[str, int]]:
    """A top-level mapping, with the line of each key and of each nested key or list item, by dotted
    path ("time_limit", "constraints.board", "rules.0"), for messages about that part. An empty
    document is an empty mapping."""
    data, lines, _ = _cached(path, "mapping", _parse_mapping)
    return data, lines


def repeated_keys(path: Path) -> list[tuple[str, int, int]]:
    """Each key a mapping of the file gives twice: (its dotted path, the line of its first, of its
    second), which YAML's loader silently lets win (as PyYAML, and so problemtools, reads it)."""
    return [tuple(found) for found in _cached(path, "mapping", _parse_mapping)[2]]


def _parse_mapping(path: Path) -> tuple[dict[str, Any], dict[str, int], list[tuple[str, int, int]]]:
    import yaml

    node = _compose(path)
    if node is None:  # an empty file, or comments only: no keys (a package's testdata.yaml often is)
        return {}, {}, []
    if not isinstance(node, yaml.MappingNode):
        raise JudgeInputError("expected a mapping (key: value lines) at the top level", path, _line(node))
    lines: dict[str, int] = {}
    repeated: list[tuple[str, int, int]] = []
    _record_lines(node, "", lines, repeated)
    data = _construct(node, path)
    return data, lines, repeated


def _record_lines(node: yaml.Node, prefix: str, lines: dict[str, int], repeated: list) -> None:
    import yaml

    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode):
                path = prefix + key.value
                if key.value in seen:
                    repeated.append((path, lines[path], key.start_mark.line + 1))
                seen.add(key.value)
                lines.setdefault(path, key.start_mark.line + 1)
                _record_lines(value, path + ".", lines, repeated)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            path = f"{prefix}{index}"
            lines.setdefault(path, item.start_mark.line + 1)
            _record_lines(item, path + ".", lines, repeated)


def load_sequence(path: Path) -> list[Located]:
    """A top-level list, each item with the line where it starts."""
    return [Located(value, line) for value, line in _cached(path, "sequence", _parse_sequence)]


def _parse_sequence(path: Path) -> list[tuple[Any, int]]:
    import yaml

    node = _compose(path)
    if node is None:
        return []
    if not isinstance(node, yaml.SequenceNode):
        raise JudgeInputError("expected a list of test cases at the top level", path, _line(node))
    return [(_construct(item, path), item.start_mark.line + 1) for item in node.value]


def _cached(path: Path, kind: str, parse):
    """parse(path), or what it gave for this very file before (see the module's docstring). A
    cache that cannot be read or written only means parsing again; what marshal cannot hold (a
    YAML timestamp) is not kept."""
    try:
        info = os.stat(path)
    except OSError:
        return parse(path)  # which says why it cannot be read
    where = repr((CACHE_FORMAT, kind, os.path.abspath(path)))  # one kept file per file read: an edit replaces it
    key = repr((where, info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns, sys.version_info[:2]))
    # the file's name only spreads them out (the key inside is compared whole): a checksum, not
    # hashlib, whose OpenSSL start was 3 ms of every grade
    kept = cache_root() / CACHE_FOLDER / f"{zlib.crc32(where.encode()):08x}"
    try:
        if private(kept.parent) and private(kept):
            stored_key, value = marshal.loads(kept.read_bytes())
            if stored_key == key:
                return value
    except (OSError, ValueError, EOFError, TypeError):
        pass
    value = parse(path)
    try:
        data = marshal.dumps((key, value))
    except ValueError:
        return value
    keep(kept, data)
    _evict(kept.parent)
    return value


def _evict(folder: Path) -> None:
    """Past KEPT_FILES files (files read once from folders since gone, a test run's temporary
    ones), the half written longest ago goes."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    if len(entries) <= KEPT_FILES:
        return
    written = []
    for entry in entries:
        try:
            written.append((entry.stat().st_mtime_ns, entry.path))
        except OSError:  # another judge removed it meanwhile
            pass
    for _, path in sorted(written)[:len(written) // 2]:
        try:
            os.unlink(path)
        except OSError:
            pass


def _line(node: yaml.Node | None) -> int | None:
    return node.start_mark.line + 1 if node is not None else None
