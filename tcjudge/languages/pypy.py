"""PyPy 3: Python 3 programs run as problemtools' languages.yaml runs Python 3 (`pypy3 main.py`, after
`pypy3 -m py_compile` of every file: a syntax error is CE), for a file whose `#!` line names pypy3 and
for a Kattis package's Python 3 submissions (docs/kattis.md says why), in a fresh confined child under
the pypy profile: its JIT writes the machine code it runs (executable memory). The program's files are
in the build folder, so its imports find them as `pypy3 main.py` would.
"""

from __future__ import annotations

import re
from pathlib import Path

from .base import Toolchain
from .programs import ProgramLanguage


class PyPy(ProgramLanguage):
    name = "pypy"
    title = "PyPy 3"
    extensions = ()  # a Python file is PyPy 3's by its #! line or its problem, never by an extension
    source_extensions = (".py", ".py3")
    layers = ("standard-input programs; checked by pypy3 -m py_compile confined, cached; each test runs pypy3 in a "
              "fresh confined child: rlimits, Landlock, seccomp (pypy profile: one execve, JIT memory)")
    install_hint = "pypy3 was not found on PATH (Debian/Ubuntu: apt install pypy3)"
    kattis_code = "python3"
    entry_marker = re.compile(r"^if\s+__name__\s*==\s*['\"]__main__['\"]", re.MULTILINE)
    tools = ("pypy3",)
    flags = ("-m", "py_compile")
    profile = "pypy"
    data_extra_mib = 32
    run_tools = ("pypy3",)
    # its collector sizes its nursery from the CPU's L2 cache, read in /proc/cpuinfo (a file of the whole
    # machine, the same for every process); without it: a warning on standard error and a default size
    run_readable = ("/proc/cpuinfo",)

    def version(self, lines: list[str]) -> str:
        """"Python 3.9.16 (7.3.11+dfsg-2+deb12u3, ...)" and "[PyPy 7.3.11 with GCC 12.2.0]": PyPy 7.3.11 (Python 3.9.16)."""
        pypy = next((line.strip("[]").split(" with ")[0] for line in lines if line.startswith("[PyPy")), "PyPy")
        return f"{pypy} ({lines[0].split(' (')[0]})"

    def build_argv(self, toolchain: Toolchain, files: list[str], entry: str) -> list[str]:
        return [toolchain.programs["pypy3"], "-m", "py_compile", *files]

    def run_argv(self, toolchain: Toolchain, folder: Path, entry: str, memory_mib: int) -> list[str]:
        return [toolchain.programs["pypy3"], str(folder / entry)]


PYPY = PyPy()
