"""A JVM starts our runtime from a class-data archive made once (docs/languages.md, "Java start-up").

Since the runtime became a module on the module path, each JVM's start resolves the module graph
itself, the larger part of its start's CPU (not charged, but paid once per test of a standard-input
program); the archive (-XX:SharedArchiveFile, a cached build) gives it back the classes that start
loads. These tests check the JVM really maps it (-Xshare:on fails where it cannot), and that a JVM
without one starts as before.
"""

from __future__ import annotations

import subprocess

import pytest

from tcjudge.languages import JAVA, java

pytestmark = pytest.mark.skipif(JAVA.toolchain() is None, reason=JAVA.missing_message())
HELLO = "public class Hello { public static void main(String[] args) { System.out.println(\"hello\"); } }\n"


@pytest.fixture
def hello(tmp_path, monkeypatch):
    """A program's compiled classes, in a cache of the test's own (so the archive is made here)."""
    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path / "cache"))
    (tmp_path / "Hello.java").write_text(HELLO)
    toolchain = java._jdk()
    subprocess.run([toolchain.programs["javac"], "-d", str(tmp_path / "classes"), str(tmp_path / "Hello.java")],
                   check=True)
    return toolchain, str(tmp_path / "classes")


def _start(argv: list[str], *options: str) -> subprocess.CompletedProcess:
    """The JVM of `argv`, with `options` after the judge's, and /dev/null as its result channel (fd 3)."""
    main = argv.index("-p")
    return subprocess.run(["/bin/sh", "-c", 'exec "$@" 3>/dev/null', "sh", *argv[:main], *options, *argv[main:]],
                          capture_output=True, text=True, timeout=120)


def test_a_jvm_maps_the_archive_of_our_runtimes_start(hello, tmp_path):
    toolchain, classes = hello
    argv = java.stdin_program(toolchain, classes, "Hello", 64)["argv"]
    archives = [arg.split("=", 1)[1] for arg in argv if arg.startswith("-XX:SharedArchiveFile=")]
    assert len(archives) == 1 and archives[0].startswith(str(tmp_path / "cache")), argv
    started = _start(argv, "-Xshare:on", "-Xlog:class+load=info:stdout")  # (on: fails if it cannot map it)
    assert started.returncode == 0 and "hello" in started.stdout, started.stderr
    assert "tcjudge.Main source: shared objects file (top)" in started.stdout  # our runtime's, from the archive
    assert java.stdin_program(toolchain, classes, "Hello", 64)["argv"] == argv  # made once, then kept


def test_without_an_archive_the_jvm_starts_as_before(hello, monkeypatch):
    """Where the JVM made no archive it can map, none is named: the JVM loads those classes itself."""
    toolchain, classes = hello
    monkeypatch.setattr(java, "_dump_archive", lambda *args: (False, "the JVM made no class-data archive", {}))
    argv = java.stdin_program(toolchain, classes, "Hello", 64)["argv"]
    assert not [arg for arg in argv if arg.startswith("-XX:SharedArchiveFile=")], argv
    started = _start(argv)
    assert started.returncode == 0 and "hello" in started.stdout, started.stderr
