"""Commands that end with the thread that started them, however it ends (Ctrl-C, SIGTERM, kill -9, a
`timeout`): a Dask scheduler or worker left behind keeps its ports, and the workers their zygotes,
until someone ends them by hand.

The command runs through a bare interpreter that sets its parent-death signal (SIGKILL) and checks
that its parent is still the process that started it (one that died before the prctl: it ends at
once), then becomes the command: the signal is kept across execve (a set-user-ID program aside).
What the command starts ends with it in turn: Dask's worker processes with their nanny (a pipe), a
zygote with the worker thread that started it (its own parent-death signal).

The kernel sends the signal when the *thread* that forked ends, not its process: start the command
from a thread that lives as long as it should (the thread of a `with` block does).
"""

from __future__ import annotations

import os
import sys

from ..protected import PROJECT_ROOT

BOOTSTRAP = ("import os, sys; sys.path.insert(0, sys.argv[1]); from tcjudge.engine.processes import die_with_parent; "
             "die_with_parent(int(sys.argv[2])); os.execvp(sys.argv[3], sys.argv[3:])")


def tethered(command: list[str]) -> list[str]:
    """`command`, to be started by this thread (subprocess.Popen), made to end when this thread ends.
    Its process is the command's own after the exec (same pid: Popen's poll, wait and kill hold)."""
    return [sys.executable, "-S", "-P", "-c", BOOTSTRAP, str(PROJECT_ROOT), str(os.getpid()), *command]
