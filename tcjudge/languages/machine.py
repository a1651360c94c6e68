"""What of a machine can change a verdict: its host, and the compiler of a solution's language (the
run history keys reuse on it)."""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path

from . import EXTENSIONS
from ..problems.format import language_of

MACHINES_JOINED = " + "  # between the machines that graded one result (a cluster's chunks), in the history


@lru_cache(maxsize=1)
def host_id() -> str:
    """The machine a run ran on: its name, kernel and architecture, and the Python that runs the judge."""
    system = os.uname()  # what platform.node(), system(), release() and machine() say, without its import
    return (f"{system.nodename} {system.sysname} {system.release} {system.machine} "
            f"Python {sys.version.split()[0]}")


def verdict_machine(solution: Path, problem=None) -> str:
    """What of the machine can change a solution's verdict on `problem`: the host, and the compiler of
    its language (a new g++ can change a C++ verdict; it changes no Python one, nor does a missing
    javac). Its language's module is the only one asked, so recording a Python run imports no compiler's."""
    own_format = problem.kind.own_format if problem is not None else None
    return machine_for(language_of(solution, EXTENSIONS), own_format)  # None: a submit-answer's answer files


def machine_for(language, own_format: bool | None = None) -> str:
    """verdict_machine for a solution in `language` (a languages.Language, or None: nothing compiled) on
    a problem in our own format or not (None: either)."""
    version = language.machine_version(own_format) if language is not None else None
    return f"{host_id()}; {version}" if version else host_id()
