"""The history's problem hash: the same value the first judge stored (results stay reusable across
versions), read again when any file changes, even within one process (judge serve lives long)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from tcjudge.reports.fingerprints import problem_hash


def by_rglob(folder: Path) -> str:
    """The definition, as the history's first version computed it (Path order, rglob's reach)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        relative = path.relative_to(folder)
        if relative.name.startswith(("statement", ".")) or "__pycache__" in relative.parts:
            continue
        digest.update(str(relative).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def tricky_tree(root: Path) -> Path:
    """Names whose string order differs from Path order (a/b before a-c), hidden files and folders,
    caches, a statement, links to a file, to a folder and to nothing."""
    folder = root / "p"
    for name, text in {"a/b": "1", "a-c": "2", ".hidden/x": "3", "__pycache__/y": "4", "statement.md": "5",
                       "d/e/f": "6", "a b": "7", "A": "8", "data/secret/1.in": "9"}.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    (folder / "linked_folder").symlink_to("d")
    (folder / "linked_file").symlink_to("a-c")
    (folder / "broken").symlink_to("nowhere")
    return folder


def test_the_hash_is_the_one_the_history_has_always_stored(tmp_path):
    folder = tricky_tree(tmp_path)
    assert problem_hash(folder) == by_rglob(folder)
    for package in (Path(__file__).parent.parent / "testdata" / "kattis").iterdir():
        if package.is_dir():
            assert problem_hash(package) == by_rglob(package), package


def test_an_edit_is_seen_by_the_same_process(tmp_path):
    folder = tricky_tree(tmp_path)
    before = problem_hash(folder)
    test = folder / "data" / "secret" / "1.in"
    stamp = test.stat().st_mtime_ns
    test.write_text("0")  # the same size
    os.utime(test, ns=(stamp + 1_000_000, stamp + 1_000_000))
    assert problem_hash(folder) == by_rglob(folder) != before
    (folder / "data" / "secret" / "2.in").write_text("new")
    assert problem_hash(folder) == by_rglob(folder)
