"""A compiler's version is asked once per installed binary (languages/versions.py): asked again when
the binary changes, and never taken from a cache file someone else could have written."""

from __future__ import annotations

import os
import stat

from tcjudge.languages import versions


def fake_compiler(folder, said: str):
    """An executable that prints `said` and counts its runs in a file beside it."""
    program = folder / "cc"
    program.write_text(f"#!/bin/sh\necho run >> {folder / 'runs'}\necho '{said}'\n")
    program.chmod(0o755)
    return program


def runs(folder) -> int:
    path = folder / "runs"
    return len(path.read_text().splitlines()) if path.exists() else 0


def test_a_version_is_asked_once_while_the_binary_is_unchanged(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path / "cache"))
    program = fake_compiler(tmp_path, "cc 1.0")
    assert versions.version_output([str(program), "--version"], 10) == ("cc 1.0\n", "")
    assert versions.version_output([str(program), "--version"], 10) == ("cc 1.0\n", "")
    assert runs(tmp_path) == 1
    assert versions.version_output([str(program), "-v"], 10) == ("cc 1.0\n", "")  # other arguments: asked
    assert runs(tmp_path) == 2


def test_an_upgraded_binary_is_asked_again(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path / "cache"))
    program = fake_compiler(tmp_path, "cc 1.0")
    versions.version_output([str(program), "--version"], 10)
    replacement = tmp_path / "new"
    replacement.mkdir()
    os.replace(fake_compiler(replacement, "cc 2.0"), program)  # as a package upgrade does: a new file
    assert versions.version_output([str(program), "--version"], 10) == ("cc 2.0\n", "")


def test_a_cache_file_others_can_write_is_not_believed(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path / "cache"))
    program = fake_compiler(tmp_path, "cc 1.0")
    versions.version_output([str(program), "--version"], 10)
    cache = tmp_path / "cache" / versions.VERSIONS_FILE
    planted = cache.read_text().replace("cc 1.0", "cc 9.9")
    cache.write_text(planted)
    assert versions.version_output([str(program), "--version"], 10) == ("cc 9.9\n", "")  # ours: believed
    cache.write_text(planted)
    cache.chmod(cache.stat().st_mode | stat.S_IWOTH)
    assert versions.version_output([str(program), "--version"], 10) == ("cc 1.0\n", "")


def test_a_missing_program_has_no_version(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path / "cache"))
    assert versions.version_output([str(tmp_path / "absent"), "--version"], 10) is None
