"""What a zygote prepares once for the children it forks: the kernel layers they enter, the folder
of their cgroups, and the figures a test's memory is measured from (zygote side, trusted).

Imports nothing of the judge but tcjudge.protocol and the sandbox.
"""

from __future__ import annotations

import os

from ..protocol import ARGS_FD


def hold_child_descriptors(devnull: int) -> list[int]:
    """Occupy every free descriptor up to ARGS_FD (a child dup2s its channels there), so what is
    opened next lands above them; the caller closes the returned placeholders."""
    held = []
    while (fd := os.dup(devnull)) <= ARGS_FD:
        held.append(fd)
    os.close(fd)
    return held


def vm_data_bytes() -> int:
    with open("/proc/self/status") as handle:
        return next((int(line.split()[1]) * 1024 for line in handle if line.startswith("VmData:")), 0)


def open_cgroups():
    """This zygote's folder of per-test cgroups, or None and why not (never fatal)."""
    try:
        from tcjudge.engine.sandbox import cgroup

        cgroup.sweep()  # left by zygotes killed before they could clean up
        return cgroup.Cgroups.open(f"{cgroup.PREFIX}{os.getpid()}")
    except Exception as err:  # noqa: BLE001 - an optional layer
        return None, f"{type(err).__name__}: {err}"


def load_confinement(secrets: list[str], readable: list[str] = (), profile: str = "python", processes: bool = False):
    """The kernel confinement layers, prepared once here (once per compiled program: its folder
    and runtime become readable, its profile allows the exec; once per solution whose project lies
    beneath a folder the interpreter reads) and entered by every child.

    `processes`: the profile with processes allowed (a test that may be a tree: engine/tree.py).
    Returns (confinement or None, problems): a layer that cannot be prepared is reported, never fatal.
    The `secrets` (the judge's own folder; the problem's project: problems, expected outputs,
    reports) must stay unreadable to solutions.
    """
    try:
        from tcjudge.engine import sandbox

        chosen = sandbox.PROFILES[profile]._replace(processes=processes)
        return sandbox.prepare(readable, must_not_cover=secrets, profile=chosen), []
    except Exception as err:  # any failure of an optional layer degrades to running without it
        return None, [f"confinement unavailable: {type(err).__name__}: {err}"]


def baseline_kib() -> int:
    """Peak memory of a child that does nothing: what every test's figure includes before the solution."""
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    return os.wait4(pid, 0)[2].ru_maxrss
