"""The layers that confine every test, the engine's own and the kernel's, as `doctor` shows them.

The engine's layers need only long-standing kernel features; the kernel layers (tcjudge.engine.sandbox)
depend on the kernel's version and configuration and are reported, never required.

What a grading run says of them (missing_layers_warning) is kept in the cache folder until the
machine reboots: probing took importing the sandbox's modules, a twentieth of a short `grade`.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..cachedir import cache_root, keep_text, kept_text, stamps

WARNING_FOLDER = "layers"  # in the cache folder: one file per user and boot


def engine_layers() -> list:
    """The engine's layers (sandbox.LayerStatus), each probed here."""
    from .sandbox import LayerStatus, cgroup, trusted

    pidfd = hasattr(os, "pidfd_open")
    return [
        LayerStatus("fresh process", True, "each test runs in its own child forked from a worker that holds no expected outputs"),
        LayerStatus("rlimits", True, "CPU (backstop), data segment = memory limit, address space max(16 GiB, 16 x memory) (page tables at most 1/512 of it), stack, file size 0, core 0, 64 open files"),
        LayerStatus("cpu watch", pidfd, "the worker reads the child's CPU clock and kills it at the limit; idle limit 2 x TL + 1 s (time neither running nor waiting for a CPU)"
                    if pidfd else "needs pidfd_open (Linux 5.3, Python 3.9)"),
        _cpu_waits(),
        LayerStatus("process group", True, "every test's process group is killed at its end; orphans are reaped by the worker"),
        LayerStatus("environment", True, "workers start with a minimal environment, cwd /, no site-packages"),
        LayerStatus("result channel", True, "results cross as JSON text, type-checked and compared in the judge"),
        LayerStatus("bounds", *cgroup.probe()),
        trusted.layer(),
    ]


def _cpu_waits():
    """Whether the kernel shows each thread's run-queue wait, which keeps a busy machine's delays
    out of a test's idle time (docs/verdicts.md)."""
    from .sandbox import LayerStatus

    try:
        with open("/proc/thread-self/schedstat", "rb") as handle:
            int(handle.read().split()[1])
    except (OSError, IndexError, ValueError):
        return LayerStatus("cpu waits", False, "no /proc/<pid>/schedstat (CONFIG_SCHED_INFO): time waiting for a CPU "
                                               "counts as idle time, as under a wall-clock limit")
    return LayerStatus("cpu waits", True, "time waiting for a CPU on a busy machine is not idle time (schedstat); "
                                          "a test that waits past max(30 s, 10 x TL) is graded again alone, twice at most, "
                                          "waiting 4x longer each time, then IE, machine overloaded")


def all_layers() -> list:
    from . import sandbox

    return engine_layers() + sandbox.probe()


def missing_layers_warning() -> str | None:
    """One line for the start of a grading run when some layer is inactive; None when all are on.

    Kept (cachedir) under a key of what can change it: the boot (the kernel and its settings), the
    user, the cgroup this process runs in (a delegation) and the layers' own code; `doctor` probes
    afresh and keeps what it found."""
    key = _kept_key()
    kept = kept_text(_kept_path(), key)
    return (kept or None) if kept is not None else probed_layers_warning(key)


def probed_layers_warning(key: str | None = None, layers: list | None = None) -> str | None:
    """missing_layers_warning from a fresh probe (or the `layers` doctor's table shows, so that the
    two never disagree), which is kept (under `key`, else this moment's) for the grading runs after it."""
    from . import sandbox

    line = sandbox.warning_line(all_layers() if layers is None else layers)
    warning = f"judge: warning: {line}" if line else None
    keep_text(_kept_path(), key or _kept_key(), warning or "")
    return warning


def _kept_path() -> Path:
    return cache_root() / WARNING_FOLDER / str(os.getuid())


def _kept_key() -> str:
    """What the kept warning stands for (one line)."""
    try:
        with open("/proc/sys/kernel/random/boot_id") as boot, open("/proc/self/cgroup") as cgroups:
            machine = f"{boot.read().strip()} {' '.join(cgroups.read().split())}"
    except OSError:
        return "unknown"  # never equal to what a kept file holds: every run probes
    code = Path(__file__).parent
    return (f"{machine} uid {os.getuid()} {os.uname().release} "
            f"{stamps(sorted([code / 'isolation.py', *(code / 'sandbox').glob('*.py')]))}")


def doctor_report(layers: list | None = None) -> tuple[str, bool]:
    """The table that `judge.py doctor` prints (of `layers`, else a fresh probe), and whether every
    layer is active."""
    layers = all_layers() if layers is None else layers
    system = os.uname()
    header = f"Isolation layers on {system.sysname} {system.release} ({system.machine}), uid {os.getuid()}"
    table = layer_table([(layer.name, layer.active, layer.detail) for layer in layers])
    return f"{header}\n{table}", all(layer.active for layer in layers)


def layer_table(layers, weaker: set[str] = frozenset()) -> str:
    """(name, active, detail) rows as doctor shows them; layers in `weaker` are marked as on here but
    off there (for another machine's layers, as `doctor --cluster` shows them)."""
    from tabulate import tabulate  # only doctor prints a table: a grading run asks only for the warning

    rows = [[name, ("on" if active else "OFF") + (" (on here)" if name in weaker else ""), detail]
            for name, active, detail in layers]
    return tabulate(rows, ["layer", "status", "what it does, or why it is off"], tablefmt="simple",
                    maxcolwidths=[None, None, 90])
