"""The precompiled <bits/stdc++.h> (languages/cpp_header.py): made once wanted, valid for our flags,
and the program compiled with it the same, byte for byte, as without it (issue 48)."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tcjudge.languages import cpp_header
from tcjudge.languages.cpp import CPP, FLAGS, _gxx, newest_standard
from tcjudge.problems.loader import load_problem

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(not shutil.which("g++"), reason="g++ is not installed here")

SOURCES = {
    "first": "#include <bits/stdc++.h>\nusing namespace std;\nint main(){long long a,b;cin>>a>>b;cout<<a+b<<'\\n';}\n",
    # where the .gch cannot apply, g++ reads the header's text in its folder: the real header again
    "debug_macro_first": "#define _GLIBCXX_DEBUG\n#include <bits/stdc++.h>\nint main(){long long a,b;"
                         "std::cin>>a>>b;std::vector<long long> v{a,b};std::cout<<v.at(0)+v.at(1)<<'\\n';}\n",
    "twice": "#include <bits/stdc++.h>\n#include \"bits/stdc++.h\"\nint main(){long long a,b;std::cin>>a>>b;"
             "std::cout<<a+b<<'\\n';}\n",
}


@pytest.fixture
def package(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(cpp_header, "_made", {})
    copy = tmp_path / "addtwo"
    shutil.copytree(ROOT / "testdata" / "kattis" / "addtwo", copy)
    return copy


def _build(package: Path, name: str, source: str) -> Path:
    file = package / "submissions" / "accepted" / f"{name}.cpp"
    file.write_text(source)
    return CPP.build(file, load_problem(package), 1 << 20).folder / "solution"


def _plain(tmp_path: Path, name: str, source: str, standard: str) -> bytes:
    """The same program from g++ by hand, with no precompiled header anywhere."""
    folder = tmp_path / "plain"
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.cpp").write_text(source)
    from tcjudge.languages.c import THREAD_STACK, THREAD_STACK_FILE

    (folder / THREAD_STACK_FILE).write_text(THREAD_STACK)
    subprocess.run(["g++", f"-std={standard}", *FLAGS, "-x", "c++", f"{name}.cpp", THREAD_STACK_FILE, "-o", "x"],
                   cwd=folder, check=True)
    return (folder / "x").read_bytes()


def test_the_header_is_made_on_the_third_compile_that_wants_it_and_then_used(package, tmp_path):
    """Made only when it pays (about three compiles), valid for the flags we compile with (g++ -H marks
    a .gch it uses with '!'), and each program the same binary as g++ makes without it."""
    toolchain = _gxx()
    standard = newest_standard(toolchain.programs["g++"])
    wants = []
    for name in ["one", "two", "three"]:
        _build(package, name, SOURCES["first"].replace("main()", f"main(/*{name}*/)"))
        wants.append(cpp_header._made != {})
    assert wants == [False, False, True]
    folder = cpp_header.header_folder(toolchain, standard, FLAGS, {"x.cpp": SOURCES["first"].encode()})
    assert folder and (Path(folder) / "bits" / "stdc++.h.gch").stat().st_size > 1 << 20
    said = subprocess.run(["g++", f"-std={standard}", *FLAGS, "-isystem", folder, "-H", "-fsyntax-only", "-x", "c++",
                           "-"], input=SOURCES["first"], capture_output=True, text=True, check=True).stderr
    assert said.splitlines()[0] == f"! {folder}/bits/stdc++.h.gch"
    for name, source in SOURCES.items():
        assert _build(package, name, source).read_bytes() == _plain(tmp_path, name, source, standard), name


def test_a_file_that_does_not_include_it_never_counts(package):
    toolchain = _gxx()
    standard = newest_standard(toolchain.programs["g++"])
    for _ in range(cpp_header.WANTED_BEFORE_MAKING + 1):
        assert cpp_header.header_folder(toolchain, standard, FLAGS, {"x.cpp": b"#include <cstdio>\n"}) is None
    assert not (Path(os.environ["JUDGE_CACHE"]) / "builds").exists()


def test_while_another_process_makes_it_a_compile_goes_on_without_it(package, monkeypatch):
    """Never waited for: the other worker's compile is not held up by the five seconds of making it."""
    monkeypatch.setattr(cpp_header, "WANTED_BEFORE_MAKING", 1)
    toolchain = _gxx()
    standard = newest_standard(toolchain.programs["g++"])
    lock = Path(os.environ["JUDGE_CACHE"]) / "builds" / "stdc++.lock"
    lock.parent.mkdir(parents=True)
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        assert cpp_header.header_folder(toolchain, standard, FLAGS, {"x.cpp": SOURCES["first"].encode()}) is None
        assert _build(package, "meanwhile", SOURCES["first"]).is_file()
    assert not list((lock.parent).glob("*/*/bits"))  # (made by no one: the holder of the lock would)


def test_its_folder_is_not_in_compile_messages_and_a_changed_file_of_it_is_made_again(package, monkeypatch):
    """Breaker 54c F5: a message about a line of the header named the header's folder in the cache (and,
    made from a file including it, "from including.hpp:1"); F6: its text changed under a long-lived
    process was used by the next program that read it."""
    monkeypatch.setattr(cpp_header, "WANTED_BEFORE_MAKING", 1)
    toolchain = _gxx()
    standard = newest_standard(toolchain.programs["g++"])
    folder = Path(cpp_header.header_folder(toolchain, standard, FLAGS, {"x.cpp": SOURCES["first"].encode()}))
    broken = "#define private public\nint x = ;\n#include <bits/stdc++.h>\nint main() { std::list<int> l; " \
             "std::sort(l.begin(), l.end()); }\n"
    with pytest.raises(Exception) as failed:
        _build(package, "broken", broken)
    assert "bits/stdc++.h" in str(failed.value)
    assert str(folder) not in str(failed.value) and "including.hpp" not in str(failed.value)
    text = folder / "bits" / "stdc++.h"
    text.chmod(0o644)
    text.write_text('#include_next <bits/stdc++.h>\n#define endl "changed\\n"\n')
    assert cpp_header.header_folder(toolchain, standard, FLAGS, {"x.cpp": SOURCES["first"].encode()}) == str(folder)
    assert "changed" not in text.read_text()  # (its hashes checked again: made anew)


def test_it_is_made_again_when_a_header_it_was_made_from_changed(tmp_path):
    """Breaker 54c F7: g++ uses a .gch as it stands, even one made before the headers it was made from
    changed (a glibc upgrade leaves g++'s version line alone)."""
    header = tmp_path / "dep.h"
    header.write_text("#define VALUE 1\n")
    (tmp_path / "made").mkdir()
    (tmp_path / "made" / cpp_header.DEPENDS).write_text(__import__("json").dumps(cpp_header._stamps([str(header)])))
    assert not cpp_header._depends_changed(tmp_path / "made")
    header.write_text("#define VALUE 22\n")
    assert cpp_header._depends_changed(tmp_path / "made")


def test_it_is_not_made_on_a_nearly_full_disk(package, monkeypatch):
    """Breaker 54c F2: the header took a nearly full disk's last 120 MiB, and every compile after it was IE
    ("under 64 MiB free"). Without room to spare it is not made, and programs compile without it."""
    monkeypatch.setattr(cpp_header, "WANTED_BEFORE_MAKING", 1)
    real = shutil.disk_usage
    monkeypatch.setattr(cpp_header.shutil, "disk_usage",
                        lambda path: real(path)._replace(free=cpp_header.FREE_MIB << 19))
    toolchain = _gxx()
    standard = newest_standard(toolchain.programs["g++"])
    assert cpp_header.header_folder(toolchain, standard, FLAGS, {"x.cpp": SOURCES["first"].encode()}) is None
    assert _build(package, "room", SOURCES["first"]).is_file()


def test_a_long_lived_process_notices_a_changed_header_and_tries_again_after_a_failure(package, monkeypatch):
    """Breaker 54e: under one process (judge serve's), F-a: a system header changed after the .gch was made,
    and the stale .gch was still used (a fresh process made it again); F-b: a failure for want of disk was
    remembered for good, so the process never made it once the disk had room."""
    from tcjudge.languages.build import NotKept

    monkeypatch.setattr(cpp_header, "WANTED_BEFORE_MAKING", 1)
    monkeypatch.setattr(cpp_header, "RETRY_SECONDS", 0.0)
    toolchain = _gxx()
    standard = newest_standard(toolchain.programs["g++"])
    files = {"x.cpp": SOURCES["first"].encode()}
    real_make = cpp_header._make

    def no_room(*args):
        raise NotKept("the disk is nearly full")

    monkeypatch.setattr(cpp_header, "_make", no_room)
    assert cpp_header.header_folder(toolchain, standard, FLAGS, files) is None
    monkeypatch.setattr(cpp_header, "_make", real_make)
    folder = cpp_header.header_folder(toolchain, standard, FLAGS, files)  # (before: None for the process's life)
    assert folder
    (Path(folder) / "bits" / "left.by.test").touch()  # (gone if the folder is made anew; an inode may be reused)
    monkeypatch.setattr(cpp_header, "_stamps", lambda paths: [[path, -1, -1] for path in paths])  # (every header changed)
    again = cpp_header.header_folder(toolchain, standard, FLAGS, files)
    assert again and (Path(again) / "bits" / "stdc++.h.gch").is_file()
    assert not (Path(again) / "bits" / "left.by.test").exists()  # made anew
