"""The layers for a problem's own code that runs beside a solution (an interactor): trusted, but
limited so that a bug in it cannot harm the judge or the machine.

It may read the whole filesystem (it is the setter's code: its own files, an interpreter, a shell)
and execute, but write only beneath the one folder it owns (its feedback folder) and /dev/null; it
cannot bind or connect TCP sockets (Landlock ABI 4), nor signal or reach by abstract socket any
process outside its own domain (ABI 6, so not the judge); execve grants no privilege
(no_new_privs). No seccomp filter: a validator may fork (a `run` script) and needs no syscall list.

Use, in the forked process before its exec:  confine(writable_folder)
"""

from __future__ import annotations

import os

from . import LayerStatus, _landlock, _sys

_abi: tuple[int, int, str] | None = None


def _landlock_abi() -> tuple[int, int, str]:
    """Asked once per process (a zygote asks before it forks: the answer is inherited)."""
    global _abi
    if _abi is None:
        _abi = _landlock.abi_version()
    return _abi


def layer() -> LayerStatus:
    """What confines a problem's interactor on this machine, as doctor shows it."""
    abi, _, why = _landlock_abi()
    if abi <= 0:
        return LayerStatus("interactor", False, f"the interactor runs with its CPU, memory and file-size limits and "
                                                f"no_new_privs only, free to write anywhere the judge may: {why}")
    net = "no TCP" if abi >= 4 else "TCP allowed (needs Landlock ABI 4)"
    scope = "no signals outside itself" if abi >= 6 else "signals allowed (needs Landlock ABI 6)"
    return LayerStatus("interactor", True, f"the problem's interactor: Landlock ABI {abi}, reads everything, writes "
                                           f"only its feedback folder; {net}; {scope}; its own CPU and memory limits "
                                           f"(validation_time, validation_memory)")


def confine(writable: str) -> None:
    """Confine the calling process for good (no_new_privs, then Landlock where the kernel has it).
    Raises OSError when a layer the kernel offers cannot be applied: the caller must not exec."""
    libc = _sys.libc()
    if libc.prctl(_sys.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        _sys.check(-1, "prctl(PR_SET_NO_NEW_PRIVS)")
    abi, _, _ = _landlock_abi()
    if abi <= 0:
        return
    ruleset = _landlock.create_ruleset(abi)
    try:
        _landlock.allow_read(ruleset, "/")
        _landlock.allow_read_write(ruleset, writable, abi)
        _landlock.allow_read_write(ruleset, os.devnull, abi)
        _sys.check(libc.syscall3(_sys.NR_LANDLOCK_RESTRICT_SELF, ruleset, _landlock.restrict_flags(abi), 0),
                   "landlock_restrict_self")
    finally:
        os.close(ruleset)
