"""A compile's wall bound holds on a busy machine (issue 45: a compile-time bomb ran the compiler
116-121 s at load 15-18). The bound is the whole build's: the archive rule's second standard, or
javap after javac, runs in what the first compile left, and the compiler's process group (g++, its
cc1plus) is killed at the deadline.

A compile stopped at that bound while it got little of the CPU says nothing of the solution: it is
IE, saying the machine was busy, and is not kept, so a quiet machine compiles it again; only one
that had the CPU (or met its CPU limit) is a CE, kept as any.

The bound is lowered through build.COMPILE_LIMITS (what a compile gets where its language sets no
limits of its own), so each case takes seconds instead of two minutes. The bound is a wall bound,
so these tests measure wall time, with a margin of several seconds.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from tcjudge.engine.pool import Pool, SolutionRun
from tcjudge.languages import CPP, BuildFault, CompileError, build, cpp
from tcjudge.languages.base import Toolchain
from tcjudge.problems.loader import load_problem
from tcjudge.verdicts import Verdict

from .conftest import FIXTURE_PROBLEMS, ROOT

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
    """Twelve CPU-bound neighbours, killed at the end, each in a session of its own: the compiler runs in
    one of its own, and where the kernel shares the CPU between sessions (autogroup, on in Debian and
    Ubuntu), neighbours in pytest's session took one share among them and the bomb had most of a core
    (CE at the wall bound, not the starved IE: it failed so under pytest-xdist)."""
    neighbours = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
                  for _ in range(NEIGHBOURS)]
    try:
        yield neighbours
    finally:
        for process in neighbours:
            process.kill()
            process.wait()


def _build(tmp_path: Path, source: str, fails=CompileError) -> tuple[float, str]:
    """(wall seconds, message of the `fails` it raised) of building a method solution of the adder problem."""
    path = tmp_path / "bomb.cpp"
    path.write_text(source)
    started = time.monotonic()
    with pytest.raises(fails) as error:
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
    wall bound (never compiled again under gnu++14), an IE that says the machine was busy (a quiet
    machine stops it at its CPU limit: CE), and no compiler of it (g++, cc1plus) is left running."""
    took, message = _build(tmp_path, INCLUDE_BOMB, BuildFault)
    assert "too busy" in message, message
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


def _fake_gxx(tmp_path: Path, monkeypatch, script: str) -> None:
    """A g++ of our own (a shell script), readable by the confined compile."""
    tools = tmp_path / "tools"
    tools.mkdir()
    fake = tools / "g++"
    fake.write_text(script)
    fake.chmod(0o755)
    monkeypatch.setattr(cpp, "_gxx", lambda: Toolchain("fake g++ 1", {"g++": str(fake)}))
    monkeypatch.setattr(cpp, "SYSTEM_READABLE", (*build.SYSTEM_READABLE, str(tools)))


ADDER = "class Adder { public: long long add(vector<int> v, int f) { return 0; } };\n"


def test_the_second_standard_runs_in_what_the_first_left(bound, tmp_path, monkeypatch):
    """The archive rule's second compile ends by the first one's deadline. Before, each had a bound of
    its own: a file that failed late under gnu++17 and was a bomb under gnu++14 built for 1.5 bounds
    (here 30 s against 20). A compiler of our own that only sleeps makes it independent of the load;
    sleeping, it has no CPU when the bound stops it, and is taken for one that waited for a CPU all along:
    the machine's trouble (IE), as for a bomb starved."""
    monkeypatch.setattr(build, "_group_waited", lambda group: 1000.0)  # (as a starved compile)
    monkeypatch.setattr(build, "IDLE_AFTER", 1000.0)  # (its sleeping compiler: not stopped as idle first)
    _fake_gxx(tmp_path, monkeypatch, FAKE_GXX.format(first=bound / 2))
    took, message = _build(tmp_path, ADDER, BuildFault)
    assert "too busy" in message, message
    assert took < bound + bound / 2, f"the build took {took:.1f} s against its bound of {bound:g} s"
    assert _compilers_left(tmp_path / "cache") == []


SLEEPING_GXX = "#!/bin/sh\nexec sleep 1000\n"  # a compile that never asks for the CPU (starved: _group_waited)


@pytest.fixture
def small_bound(monkeypatch, tmp_path):
    """Builds in a cache of their own under a 3 s bound, and the compiles they run, counted."""
    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(build, "COMPILE_LIMITS", build.CompileLimits(wall_seconds=3.0))
    compiles = []
    monkeypatch.setattr(cpp, "run_confined", lambda *args, **kwargs: compiles.append(args[0]) or
                        build.run_confined(*args, **kwargs))
    return compiles


def test_a_compile_the_busy_machine_stopped_is_an_internal_error_and_not_kept(small_bound, tmp_path, monkeypatch):
    """A compile stopped at its wall bound with its CPU limit far away is the machine's trouble: IE
    with a message that says so, never a CE kept in the cache (before: CE, and a later run on a quiet
    machine got that CE from the cache without compiling). A second build compiles again."""
    monkeypatch.setattr(build, "_group_waited", lambda group: 1000.0)  # (as a compile that waited for a CPU)
    _fake_gxx(tmp_path, monkeypatch, SLEEPING_GXX)
    for attempt in (1, 2):
        _, message = _build(tmp_path, ADDER, BuildFault)
        assert "the machine was too busy to compile it" in message and "not kept" in message, message
        assert len(small_bound) == attempt  # gnu++17 only (gnu++14 would fare no better), each time
    problem = load_problem(FIXTURE_PROBLEMS / "adder")
    with Pool(1) as pool:
        [result] = pool.grade([SolutionRun(problem, tmp_path / "bomb.cpp", problem.tests, stop_on_failure=True)])
    assert result.verdict is Verdict.IE and "too busy" in result.tests[0].message, result.tests[0].message


def test_a_compile_stopped_at_its_wall_bound_with_the_cpu_is_a_compile_error_kept(small_bound, tmp_path, monkeypatch):
    """One that had the CPU all along (as a bomb on a quiet machine would, were its CPU limit above the
    wall bound) is the solution's: CE, kept as before."""
    _fake_gxx(tmp_path, monkeypatch, SLEEPING_GXX)
    monkeypatch.setattr(build, "_group_cpu", lambda group: 3.0)  # as a compile that had the CPU all along
    for _ in (1, 2):
        _, message = _build(tmp_path, ADDER)
        assert "stopped at its limits" in message, message
    assert len(small_bound) == 1  # the second build was the cache's


@pytest.mark.parametrize("ending", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_nothing_of_a_compile_outlives_the_judge(tmp_path, ending):
    """issue 45 (an outside tester): a judge ended by SIGKILL, SIGTERM or Ctrl-C during a compile left
    g++, cc1plus and as running, orphans of init, to their CPU limit. The compile's supervisor now dies
    with the judge and takes the group along: here a 'compiler' whose helper it does not wait for."""
    marker = str(31_000_000 + os.getpid())  # (a sleep of this many seconds: only this test starts one)
    script = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); from pathlib import Path; "
              "from tcjudge.languages.build import SYSTEM_READABLE, run_confined; "
              f"run_confined(['/usr/bin/sh', '-c', 'sleep {marker} & sleep {marker}; wait'], Path({str(tmp_path)!r}), "
              "list(SYSTEM_READABLE), {'PATH': '/usr/bin'})")
    judge = subprocess.Popen([sys.executable, "-c", script])

    def compilers() -> list[psutil.Process]:
        return [p for p in psutil.process_iter(["cmdline"]) if (p.info["cmdline"] or [])[-1:] == [marker]]

    for _ in range(600):  # (a hang guard, not a bound: until both sleeps run)
        if len(compilers()) == 2:
            break
        time.sleep(0.1)
    assert len(compilers()) == 2
    judge.send_signal(ending)
    judge.wait()
    for _ in range(300):
        if not compilers():
            break
        time.sleep(0.1)
    assert not compilers()


def _sleeps(marker: str) -> list[psutil.Process]:
    return [p for p in psutil.process_iter(["cmdline"]) if (p.info["cmdline"] or [])[-1:] == [marker]]


@pytest.mark.parametrize("ends", ["by itself", "at the bound"])
def test_nothing_a_compile_started_outlives_it_even_in_a_session_of_its_own(tmp_path, monkeypatch, ends):
    """Breaker 50c F6: a Haskell source's pragma ran a shell at compile time whose `setsid sleep &` left
    the process group, and outlived the compile and its grading (the group's SIGKILL missed it). The
    compile's supervisor now kills everything below it before it ends, however the compile ends."""
    marker = str(32_000_000 + os.getpid())
    stay = "" if ends == "by itself" else f"; sleep {marker}"
    monkeypatch.setattr(build, "COMPILE_LIMITS", build.CompileLimits(wall_seconds=3.0))
    build.run_confined(["/usr/bin/sh", "-c", f"setsid sleep {marker} > /dev/null 2>&1 < /dev/null &{stay}"],
                       tmp_path, list(build.SYSTEM_READABLE), {"PATH": "/usr/bin"})
    left = _sleeps(marker)
    for process in left:  # (the test's own cleaning, before it fails)
        process.kill()
    assert not left  # (before: one `sleep`, its parent init, a session of its own)


@pytest.mark.skipif(os.geteuid() != 0, reason="a compiler as root: elsewhere it holds no capability to drop")
def test_a_compiler_run_as_root_holds_no_capability(tmp_path):
    """Breaker 50c F6: the shell GHC ran for a pragma held the judge's capabilities (CapEff 000001fffeffffff:
    raw sockets, the clock, reboot). Now none: effective, permitted, inheritable, bounding, ambient."""
    status, message = build.run_confined(["/usr/bin/grep", "^Cap", "/proc/self/status"], tmp_path,
                                         list(build.SYSTEM_READABLE) + ["/proc"], {"PATH": "/usr/bin"})
    assert status == 0, message
    caps = dict(line.split(":\t") for line in message.splitlines())
    assert {name: int(value, 16) for name, value in caps.items()} == {
        "CapInh": 0, "CapPrm": 0, "CapEff": 0, "CapBnd": 0, "CapAmb": 0}, message


@pytest.mark.parametrize("trick", ["chain", "leader"])
def test_nothing_a_compile_started_outlives_it_however_it_hides(tmp_path, trick):
    """Breaker 50d: after ff913f3, a process that forks its successor and exits at once (a chain in a
    session of its own), and one whose main thread had exited (a zombie to /proc, its thread forking
    on), escaped the supervisor's scan of /proc and ran on as root. Now the compile runs in a PID
    namespace of its own, and its first process's end ends every process in it."""
    marker = str(33_000_000 + os.getpid())
    if trick == "chain":  # (each process forks its successor and exits at once, for 3 s; the last one sleeps)
        code = ("import os, time; os.setsid(); end = time.time() + 3\nwhile time.time() < end:\n    if os.fork(): os._exit(0)\n"
                f"os.execvp('sleep', ['sleep', '{marker}'])")
    else:  # (a thread starts the sleep, and the main thread exits without ending the process)
        code = ("import os, threading, time, subprocess, ctypes; os.setsid(); "
                f"threading.Thread(target=lambda: (subprocess.Popen(['sleep', '{marker}']), time.sleep(60))).start(); "
                "ctypes.CDLL(None).pthread_exit(None)")
    script = f"python3 -c \"{code}\" > /dev/null 2>&1 < /dev/null & sleep 1; exit 0"
    build.run_confined(["/usr/bin/sh", "-c", script], tmp_path, list(build.SYSTEM_READABLE), {"PATH": "/usr/bin"})
    time.sleep(4)  # (past the chain's 3 s: what escaped would sleep on; nothing here waits on it)
    left = _sleeps(marker)
    for process in left:
        process.kill()
    assert not left


def test_a_build_of_too_many_files_is_a_compile_error_and_not_kept(tmp_path):
    """Breaker 50d: 200,000 empty files, 0 bytes to the size limit, cost the judge 50 s of hashing
    after the compile and 18 s at each use of the cached build. Over PROGRAM_FILES: CE, removed."""
    for index in range(build.PROGRAM_FILES + 1):
        (tmp_path / f"f{index}").touch()
    ok, message, _ = build._within_limit(tmp_path, True, "", {})
    assert not ok and f"over {build.PROGRAM_FILES} files" in message and not any(tmp_path.iterdir())


def test_a_build_of_too_many_folders_is_a_compile_error_too(tmp_path):
    """Breaker 50d on the file cap: 200,000 empty folders were 0 files and 0 bytes to it (787 MiB of disk)."""
    for index in range(build.PROGRAM_FILES + 1):
        (tmp_path / f"d{index}").mkdir()
    ok, message, _ = build._within_limit(tmp_path, True, "", {})
    assert not ok and "files and folders" in message and not any(tmp_path.iterdir())


def test_a_compile_that_sleeps_to_the_wall_bound_is_a_compile_error(monkeypatch, tmp_path):
    """Breaker 50d: a compile that only slept was IE 'the machine was too busy', never kept, so each rejudge
    held a worker for the whole bound again. It waited for no CPU (schedstat's run delay), so it is the
    source's: stopped at its limits, CE, on a busy machine too."""
    monkeypatch.setattr(build, "COMPILE_LIMITS", build.CompileLimits(wall_seconds=2.0))
    status, message = build.run_confined(["/usr/bin/sleep", "30"], tmp_path, list(build.SYSTEM_READABLE),
                                         {"PATH": "/usr/bin"})
    assert status is None and "stopped at its limits" in message, message


@pytest.fixture()
def idle_rule(monkeypatch):
    """The compile's idle rule at a test's scale: looked at every 0.2 s, past 2 s."""
    if not build._has_schedstat():
        pytest.skip("the kernel does not say how long a process waited (no schedstat)")
    monkeypatch.setattr(build, "IDLE_AFTER", 2.0)
    monkeypatch.setattr(build, "LOOK_EVERY", 0.2)


def test_a_compile_that_sleeps_is_stopped_long_before_the_wall_bound(idle_rule, tmp_path):
    """Breaker 52b: a Haskell source's -pgmF shell ran `sleep 200`, which held a grading place for the
    whole 120 s bound before its CE, and two teams so stopped a contest's grading at -j 2. Breaker 52d:
    15 s idle on end missed a loop of short sleeps, one that printed, one that slept between bits of
    work. A compile that ran or waited for a CPU less than half the time, past IDLE_AFTER, is stopped."""
    readable, env = list(build.SYSTEM_READABLE), {"PATH": "/usr/bin:/bin"}
    for script in ("sleep 30", "while :; do sleep 0.1; done", "while :; do echo still here; sleep 0.2; done",
                   "while :; do sleep 1; i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done; done"):
        with pytest.raises(build.NotKept, match="a compiler does not sleep"):  # (before: 120 s)
            build.run_confined(["/bin/sh", "-c", script], tmp_path, readable, env)
    status, _ = build.run_confined(["/bin/sh", "-c", "i=0; while [ $i -lt 1500000 ]; do i=$((i+1)); done"], tmp_path,
                                   readable, env)
    assert status == 0  # a compile that works for longer than IDLE_AFTER is not stopped


@pytest.mark.skipif(not build._has_schedstat(), reason="the kernel does not say how long a process waited")
def test_a_sleeping_compile_is_stopped_ten_seconds_in(tmp_path):
    """Breaker 56c F4: eight teams' compiles that slept (Template Haskell's threadDelay) held every builder,
    the spare ones too, until the idle rule stopped them 30 s in: another team's C++ AC waited 25 s, wave
    after wave. The rule stops a compile that ran or waited for a CPU less than half of its first 10 s."""
    with pytest.raises(build.NotKept, match="a compiler does not sleep") as stopped:
        build.run_confined(["/bin/sh", "-c", "sleep 60"], tmp_path, list(build.SYSTEM_READABLE), {"PATH": "/usr/bin:/bin"})
    took = int(re.search(r"of the (\d+) s it took", str(stopped.value)).group(1))
    assert took < 15, stopped.value  # (before: 30 s; the rule looks once a second)


def test_a_chain_of_processes_that_each_reaped_the_same_work_counts_it_once(idle_rule, tmp_path):
    """Breaker 53b F1: a chain of nested processes, the innermost burning a little CPU and each level
    sleeping once its child ended, held a grading place for the whole bound: each ended level's last
    figures were kept, and each held the same burnt CPU among what it had reaped. Now counted once."""
    chain = ("f() { if [ $1 -gt 0 ]; then (f $(($1 - 1))); sleep 0.4; "
             "else i=0; while [ $i -lt 300000 ]; do i=$((i + 1)); done; fi; }; f 60")
    with pytest.raises(build.NotKept, match="a compiler does not sleep"):  # (before: status 0, 24 s on)
        build.run_confined(["/bin/sh", "-c", chain], tmp_path, list(build.SYSTEM_READABLE), {"PATH": "/usr/bin:/bin"})


def test_a_compile_stopped_as_idle_is_a_compile_error_not_kept(tmp_path, monkeypatch):
    """Breaker 53b F2: an honest compile stopped as idle on a busy machine was CE at once from the
    cache when sent again. It is CE, and the next run compiles it again."""
    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path))
    builds = []

    def stopped_as_idle(folder):
        builds.append(folder)
        raise build.NotKept("(the compiler was stopped: ... a compiler does not sleep)")

    for _ in range(2):
        outcome = build.cached_build(["idle", str(tmp_path)], stopped_as_idle)
        assert not outcome.ok and "a compiler does not sleep" in outcome.message
    assert len(builds) == 2


def test_a_compiles_activity_counts_every_threads_waits_for_a_cpu(tmp_path):
    """Breaker 53b F2: a process's own schedstat says its main thread's waits alone; rustc works in
    another thread, and on a busy machine its waits went uncounted, an honest compile stopped as idle
    (CE, kept). A worker thread that shares one CPU with a busy neighbour while the main thread waits:
    it runs or waits all the time, so the compile is active all the time (before: about half)."""
    if not build._has_schedstat():
        pytest.skip("the kernel does not say how long a process waited (no schedstat)")
    cpu = min(os.sched_getaffinity(0))
    neighbour = subprocess.Popen([sys.executable, "-S", "-c", f"import os\nos.sched_setaffinity(0, {{{cpu}}})\n"
                                  "while True: pass"], start_new_session=True)
    work = (f"import os, threading, time\nos.sched_setaffinity(0, {{{cpu}}})\n"
            "def spin():\n    end = time.monotonic() + 8\n    while time.monotonic() < end: pass\n"
            "worker = threading.Thread(target=spin); worker.start(); worker.join()\n")
    began = time.monotonic()
    process = subprocess.Popen([sys.executable, "-S", "-c", work], start_new_session=True)
    try:
        time.sleep(4)
        now = time.monotonic()
        active = build.Activity(process.pid, began).look(now)
        assert active > 0.8 * (now - began), (active, now - began)
    finally:
        for child in (process, neighbour):
            child.kill()
            child.wait()


def test_a_herd_of_processes_woken_at_once_is_counted_once(idle_rule, monkeypatch, tmp_path):
    """Breaker 53c H1: 300 processes blocked on one pipe, woken at once, each waited for a CPU while
    those ahead of it ran: their waits summed to 275 s in 2.6 s, on 0.3 s of CPU, and the compile,
    asleep after, held its place to the wall bound. The longest wait counts, not their sum. (60 of
    them here, each with its `sleep`: a compile has at most COMPILE_TASKS tasks.)"""
    monkeypatch.setattr(build, "IDLE_AFTER", 3.0)  # (the herd wakes at 1 s)
    herd = ("sleep 1 | { exec 3<&0; for n in $(seq 60); do "
            "(read x <&3; i=0; while [ $i -lt 400 ]; do i=$((i + 1)); done; sleep 40) & done; wait; }")
    with pytest.raises(build.NotKept, match="a compiler does not sleep"):
        build.run_confined(["/bin/sh", "-c", herd], tmp_path, list(build.SYSTEM_READABLE), {"PATH": "/usr/bin:/bin"})


def test_a_compile_makes_no_user_namespace(tmp_path):
    """Breaker 53b F3: a compile (a Haskell -pgmF shell) made a user namespace, and in it a network
    namespace whose nf_tables it could drive as their admin; F7: it ran at idle priority, always
    waiting, and waiting counts as a compile's activity. Its filter refuses both (a thread still
    starts: clone3's ENOSYS makes glibc use clone)."""
    probe = tmp_path / "probe.sh"
    probe.write_text("unshare -U true && echo made || echo refused\n"
                     "echo niceness $(nice -n 19 nice 2>/dev/null)\n"
                     "chrt -i 0 sh -c 'chrt -p $$'\n"
                     "python3 -S -c 'import threading; t = threading.Thread(target=print, args=(\"thread\",)); "
                     "t.start(); t.join()'\n")
    status, message = build.run_confined(["/bin/sh", str(probe)], tmp_path, list(build.SYSTEM_READABLE),
                                         {"PATH": "/usr/bin:/bin"})
    assert status == 0 and "refused" in message and "made" not in message and "thread" in message, message
    assert "niceness 0" in message and "SCHED_OTHER" in message, message  # (F7: waiting counts as activity)


def _compile_cgroups() -> bool:
    from tcjudge.engine.sandbox.cgroup import probe

    return probe()[0]


@pytest.mark.skipif(not _compile_cgroups(), reason="no cgroup this user may write: a compile is bounded per process")
def test_a_compiles_processes_together_are_bounded_in_tasks_cpu_and_memory(tmp_path):
    """Breaker 55a F1: a Haskell source's Template Haskell started 200 busy shells at compile time (load
    190 for the whole 120 s wall bound, then IE "machine too busy": no penalty, again and again), and 4
    processes of 1 GiB each (the rlimits bound each process, not their sum). A compile's processes now
    share a cgroup: at most COMPILE_TASKS tasks, its memory limit and HELPERS_MIB more, and TOGETHER
    times one process's CPU; past that CPU, all are killed: CE at its limits."""
    from tcjudge.languages.compile_child import COMPILE_TASKS

    readable, env = list(build.SYSTEM_READABLE), {"PATH": "/usr/bin:/bin"}
    limits = build.CompileLimits(cpu_seconds=3, wall_seconds=60.0, memory_mib=256)
    # (sleepers, under a CPU limit of a minute: in platforms/vm.sh's emulated guest the forks alone met a 3 s
    # limit's 4.5 s together before the 178th)
    status, message = build.run_confined(["/bin/sh", "-c", f"for i in $(seq {COMPILE_TASKS + 50}); do "
                                          "(sleep 20) & done; wait"], tmp_path, readable, env,
                                         build.CompileLimits(cpu_seconds=60, wall_seconds=120.0, memory_mib=256))
    assert "Cannot fork" in message and status not in (0, None), message  # (before: 178 of them, to the bound)
    status, message = build.run_confined(["/bin/sh", "-c", "for i in 1 2 3; do (while :; do :; done) & done; wait"],
                                         tmp_path, readable, env, limits)
    assert status is None and "the compile's processes together used" in message, message  # CE, at its limits
    (tmp_path / "eat.py").write_text("b = bytearray(200 << 20)\nfor i in range(0, len(b), 4096): b[i] = 1\n"
                                     "print('ate', flush=True)\nimport time; time.sleep(3)\n")
    status, message = build.run_confined(["/bin/sh", "-c", "for i in $(seq 8); do python3 eat.py & done; wait"],
                                         tmp_path, readable, env, limits)
    assert message.count("ate") < 8, message  # 8 x 200 MiB over 256 + 512 MiB: some killed (before: all 8)


@pytest.mark.skipif(not _compile_cgroups(), reason="no cgroup this user may write: a compile is bounded per process")
def test_a_compiles_processes_weigh_as_one_process_on_the_cpus(tmp_path):
    """Breaker 55c F2: four teams' compiles of 128 busy threads each (Template Haskell) held an honest
    submission 32-68 s at load 432: each thread weighed as much as a test. A compile's cgroup is a
    scheduling group too (the cpu controller, where this user may use it), which a process that starts a
    session of its own does not leave (autogroup groups sessions only outside a cpu cgroup)."""
    import threading

    from tcjudge.engine.sandbox import cgroup

    marks = ("3.14159", "2.71828")  # (a sleep's argument: found from outside, where /proc/<pid>/cgroup is readable)
    probe = f"sleep {marks[0]} & setsid sleep {marks[1]} & wait"
    compile = threading.Thread(target=build.run_confined, args=(["/bin/sh", "-c", probe], tmp_path,
                                                                 list(build.SYSTEM_READABLE), {"PATH": "/usr/bin:/bin"}))
    compile.start()
    listings: dict[str, str] = {}
    deadline = time.monotonic() + 30
    while len(listings) < 2 and time.monotonic() < deadline:
        for process in psutil.process_iter(["cmdline"]):
            mark = next((mark for mark in marks if process.info["cmdline"] == ["sleep", mark]), None)
            if mark is not None and mark not in listings:
                try:
                    listings[mark] = Path(f"/proc/{process.pid}/cgroup").read_text()
                except OSError:
                    pass
        time.sleep(0.05)
    compile.join()
    assert len(listings) == 2, listings
    mounts = cgroup._mounts()
    for listing in listings.values():
        lines = dict(line.split(":", 2)[1:] for line in listing.split() if line.count(":") >= 2)
        if cgroup.SCHEDULING in mounts:  # v1 (or hybrid): the cpu hierarchy's own line
            cpu = next(path for controllers, path in lines.items() if "cpu" in controllers.split(","))
            assert "-compile/" in cpu, listing  # (before: "/", every thread its own weight)
        else:  # v2: the compile's cgroup, whose home hands the cpu controller down
            assert "-compile/" in lines[""], listing
            home = cgroup.home_of(mounts[""], cgroup._own_folder(mounts[""]))
            if "cpu" not in Path(home, "cgroup.controllers").read_text().split():
                pytest.skip("the cpu controller is not delegated to this user's cgroup: a compile's threads "
                            "each weigh as a process here (platforms/vm.sh's user-delegated case)")
            assert "cpu" in Path(home, "cgroup.subtree_control").read_text().split()


@pytest.mark.skipif(not _compile_cgroups(), reason="no cgroup this user may write: a compile is bounded per process")
def test_a_compile_that_writes_too_much_is_stopped_while_it_writes(tmp_path):
    """Breaker 56a F3: Template Haskell wrote 12 files of 60 MiB (721 MiB) in 14.5 s, and the build was refused
    only once it ended ("the build is 721 MiB"): with its 45 s of CPU and six compiles at once, enough to fill
    the store's disk. The compile's folder is watched while it runs: past WRITTEN_BYTES, all its processes
    are killed, a CE at its limits."""
    from tcjudge.languages.compile_child import WRITTEN_BYTES

    files = WRITTEN_BYTES // (60 << 20) + 3
    status, message = build.run_confined(
        ["/bin/sh", "-c", f"for i in $(seq {files}); do python3 -S -c \"open('f$i', 'wb').write(b'1' * {60 << 20})\"; "
                          "done; echo wrote all"],
        tmp_path, list(build.SYSTEM_READABLE), {"PATH": "/usr/bin:/bin"})
    assert status is None and "more than a compile may write" in message and "wrote all" not in message, message
    assert sum(path.stat().st_size for path in tmp_path.iterdir()) < WRITTEN_BYTES + (300 << 20)
