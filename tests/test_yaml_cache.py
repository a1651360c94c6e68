"""What a YAML file was read into is kept in the cache folder (problems/yamlio.py): a later start
reads it without PyYAML, and never a stale or a planted one."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys

import pytest

from tcjudge.errors import JudgeInputError
from tcjudge.problems import yamlio

from .conftest import ROOT


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("JUDGE_CACHE", str(folder))
    return folder / yamlio.CACHE_FOLDER


def test_a_later_start_reads_the_kept_result_without_importing_yaml(tmp_path, cache):
    tests = tmp_path / "tests.yaml"
    tests.write_text("- args: [1, [2, 3]]\n  expected: 6\n\n- args: [0, []]\n  expected: 0\n")
    program = ("import json, pathlib, sys; from tcjudge.problems.yamlio import load_sequence; "
               "print(json.dumps([[item.value, item.line] for item in load_sequence(pathlib.Path(sys.argv[1]))]), "
               "'yaml' in sys.modules)")
    runs = [subprocess.run([sys.executable, "-c", program, str(tests)], capture_output=True, text=True, cwd=ROOT,
                           env=dict(os.environ, JUDGE_CACHE=str(cache.parent)), check=True).stdout for _ in range(2)]
    read = '[[{"args": [1, [2, 3]], "expected": 6}, 1], [{"args": [0, []], "expected": 0}, 4]]'
    assert runs == [f"{read} True\n", f"{read} False\n"]


def test_a_changed_file_is_read_again(tmp_path, cache):
    spec = tmp_path / "problem.yaml"
    spec.write_text("name: First\ntime_limit: 2\n")
    assert yamlio.load_mapping(spec) == ({"name": "First", "time_limit": 2}, {"name": 1, "time_limit": 2})
    spec.write_text("name: Other\ntime_limit: 3\n")  # the same size: its times and inode's data tell
    assert yamlio.load_mapping(spec)[0] == {"name": "Other", "time_limit": 3}


def test_a_kept_file_another_user_could_have_written_is_not_used(tmp_path, cache):
    spec = tmp_path / "problem.yaml"
    spec.write_text("name: Mine\n")
    yamlio.load_mapping(spec)
    [kept] = cache.iterdir()
    key, _ = marshal.loads(kept.read_bytes())
    kept.write_bytes(marshal.dumps((key, ({"name": "Planted"}, {}))))
    kept.chmod(0o666)
    assert yamlio.load_mapping(spec)[0] == {"name": "Mine"}


def test_what_marshal_cannot_hold_is_read_and_not_kept(tmp_path, cache):
    spec = tmp_path / "problem.yaml"
    spec.write_text("released: 2024-05-01\n")  # a YAML timestamp: a datetime.date
    for _ in range(2):
        assert str(yamlio.load_mapping(spec)[0]["released"]) == "2024-05-01"
    assert not cache.exists() or not any(cache.iterdir())


def test_a_malformed_file_names_its_line_every_time(tmp_path, cache):
    broken = tmp_path / "problem.yaml"
    broken.write_text("name: x\n  bad: [\n")
    for _ in range(2):
        with pytest.raises(JudgeInputError) as raised:
            yamlio.load_mapping(broken)
        assert raised.value.line == 2


def test_the_kept_files_are_bounded_and_an_edit_replaces_its_own(tmp_path, cache, monkeypatch):
    monkeypatch.setattr(yamlio, "KEPT_FILES", 4)
    spec = tmp_path / "problem.yaml"
    for version in range(3):  # one file read three times, edited between: one kept file
        spec.write_text(f"version: {version}\n")
        assert yamlio.load_mapping(spec)[0] == {"version": version}
    assert len(list(cache.iterdir())) == 1
    for index in range(10):
        other = tmp_path / f"other{index}.yaml"
        other.write_text(f"index: {index}\n")
        yamlio.load_mapping(other)
    assert len(list(cache.iterdir())) <= 5
