"""A compile's wall bound holds on a busy machine (issue 45: a compile-time bomb ran the compiler
116-121 s at load 15-18). The bound is the whole build's: the archive rule's second standard, or
javap after javac, runs in what the first compile left, and the compiler's process group (g++, its
cc1plus) is killed at the deadline.

The bound is lowered through build.COMPILE_LIMITS (what a compile gets where its language sets no
limits of its own), so each case takes seconds instead of two minutes. The bound is a wall bound,
so these tests measure wall time, with a margin of several seconds.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from tcjudge.languages import CPP, CompileError, build, cpp
from tcjudge.languages.base import Toolchain
from tcjudge.problems.loader import load_problem

from .conftest import FIXTURE_PROBLEMS

NEIGHBOURS = 12  # CPU-bound processes: load about 14 on 2 cores
MARGIN = 10.0  # s past the bound that stopping the compiler and reading its messages may take, loaded
INCLUDE_BOMB = """\
#if __INCLUDE_LEVEL__ < 40
#include __FILE__
#include __FILE__
#endif
"""  # 2**40 inclusions of itself, a few microseconds each: weeks of the preprocessor's CPU, no memory


@pytest.fixture
def bound(monkeypatch, tmp_path):
    """Builds in a cache of their own (a stopped compile is a CE, cached as any), under a small bound."""
    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path / "cache"))
    seconds = 20.0
    monkeypatch.setattr(build, "COMPILE_LIMITS", build.CompileLimits(wall_seconds=seconds))
    return seconds


@pytest.fixture
def busy_machine():
    """Twelve CPU-bound neighbours, killed at the end."""
    neighbours = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(NEIGHBOURS)]
    try:
        yield neighbours
    finally:
        for process in neighbours:
            process.kill()
            process.wait()


def _build(tmp_path: Path, source: str) -> tuple[float, str]:
    """(wall seconds, compile error) of building a method solution of the adder problem."""
    path = tmp_path / "bomb.cpp"
    path.write_text(source)
    started = time.monotonic()
    with pytest.raises(CompileError) as error:
        CPP.build(path, load_problem(FIXTURE_PROBLEMS / "adder"), 1 << 20)
    return time.monotonic() - started, str(error.value)


def _compilers_left(cache: Path) -> list[str]:
    """Processes still working in a build folder of `cache` (a compiler outliving its build)."""
    left = []
    for process in psutil.process_iter(["cwd", "name"]):
        if (process.info["cwd"] or "").startswith(str(cache)):
            left.append(process.info["name"])
    return left


@pytest.mark.skipif(CPP.toolchain() is None, reason=CPP.missing_message())
def test_a_compile_time_bomb_ends_at_the_bound_on_a_busy_machine(bound, tmp_path, busy_machine):
    """At load about 14 the bomb gets a seventh of a core, far from its CPU limit: it is stopped at the
    wall bound, a compile error that says so (never compiled again under gnu++14), and no compiler of
    it (g++, cc1plus) is left running."""
    took, message = _build(tmp_path, INCLUDE_BOMB)
    assert "stopped at its limits" in message, message
    assert took <= bound + MARGIN, f"the build took {took:.1f} s against its bound of {bound:g} s"
    assert _compilers_left(tmp_path / "cache") == []


FAKE_GXX = """\
#!/bin/sh
# A compiler that fails after {first} s under gnu++17 and never ends under gnu++14.
case "$1" in
    -std=gnu++17) sleep {first}; echo "judge_main.cpp:1:1: error: failed late"; exit 1 ;;
    *) exec sleep 1000 ;;
esac
"""


def test_the_second_standard_runs_in_what_the_first_left(bound, tmp_path, monkeypatch):
    """The archive rule's second compile ends by the first one's deadline. Before, each had a bound of
    its own: a file that failed late under gnu++17 and was a bomb under gnu++14 built for 1.5 bounds
    (here 30 s against 20). A compiler of our own that only sleeps makes it independent of the load."""
    tools = tmp_path / "tools"
    tools.mkdir()
    fake = tools / "g++"
    fake.write_text(FAKE_GXX.format(first=bound / 2))
    fake.chmod(0o755)
    monkeypatch.setattr(cpp, "_gxx", lambda: Toolchain("fake g++ 1", {"g++": str(fake)}))
    monkeypatch.setattr(cpp, "SYSTEM_READABLE", (*build.SYSTEM_READABLE, str(tools)))
    took, message = _build(tmp_path, "class Adder { public: long long add(vector<int> v, int f) { return 0; } };\n")
    assert "failed late" in message  # gnu++17's messages, as for any file that compiles under neither
    assert took < bound + bound / 2, f"the build took {took:.1f} s against its bound of {bound:g} s"
    assert _compilers_left(tmp_path / "cache") == []
