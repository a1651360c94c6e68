"""Haskell: standard-input programs (Kattis packages have Haskell submissions), compiled by Debian's GHC
as problemtools' languages.yaml compiles them (`ghc -O2 -ferror-spans -threaded -rtsopts`, every `.hs`
and `.c` file together) and run with its RTS options (`+RTS -M<memory limit>m -K8m -RTS`).

Two C files of ours are linked in, both for the sandbox's limits: one gives a thread the stack glibc
gives where there is no stack limit (c.THREAD_STACK: the threaded RTS starts its ticker and I/O
threads with default attributes, and each took a stack as large as the stack limit, the memory limit,
which RLIMIT_DATA counts: "failed to create OS thread"); the other replaces the RTS's OutOfHeapHook,
which the RTS calls when the heap reaches -M ("Heap exhausted", exit status 251), to say so on the
result channel as Python's MemoryError and Java's OutOfMemoryError are said: MLE. The RTS counts its
heap in megablocks, more than the kernel counts of the process (1000 KiB ByteStrings: exhausted at
153 MiB resident), so the kernel's figures alone made such a program RE. A program can write that line
itself too: it only ends its own run as a failure, as with Java's. The RTS reserves its heap's address
range at start, shrinking the request until the address-space limit allows it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from ..protocol import RESULT_FD
from .base import Toolchain
from .c import THREAD_STACK, THREAD_STACK_FILE
from .programs import ProgramLanguage

FLAGS = ("-O2", "-ferror-spans", "-threaded", "-rtsopts")
C_FLAGS = ("-optc-fPIC",)  # the judge's C helpers, position-independent: Template Haskell links them dynamically too
STACK_MIB = 8  # the RTS's -K: a Haskell thread's stack (problemtools'); its own, not the process's
HOOKS_FILE = ".tcjudge_rts_hooks.c"  # (a leading dot: no submitted file has it)
HOOKS = f"""#include <stdio.h>
#include <unistd.h>
/* The RTS calls it when the heap reaches +RTS -M (the memory limit): said on the result channel. */
void OutOfHeapHook(unsigned long request_size, unsigned long heap_size) {{
    static const char line[] = "{{\\"kind\\": \\"error\\", \\"type\\": \\"MemoryError\\", "
        "\\"message\\": \\"the heap reached +RTS -M, the memory limit\\"}}\\n";
    (void) request_size;
    if (write({RESULT_FD}, line, sizeof line - 1) < 0) {{ /* no channel: the exit status says it */ }}
    fprintf(stderr, "Heap exhausted; the heap limit (+RTS -M, the memory limit) is %lu bytes.\\n", heap_size);
}}
"""


class Haskell(ProgramLanguage):
    name = "haskell"
    title = "Haskell"
    extensions = (".hs",)
    layers = ("standard-input programs; compiled by ghc confined (rlimits, Landlock, process group), cached; each "
              "test execs the binary with +RTS -M<limit> in a fresh confined child: rlimits, Landlock, seccomp "
              "(haskell profile: one execve, threads)")
    install_hint = "ghc was not found on PATH (Debian/Ubuntu: apt install ghc)"
    kattis_code = "haskell"
    entry_marker = re.compile(r"^main\s*(?:=|::)", re.MULTILINE)
    tools = ("ghc",)
    flags = (*FLAGS, *C_FLAGS, THREAD_STACK, HOOKS)
    profile = "haskell"
    data_extra_mib = 32  # what the RTS maps beyond its heap (its threads' stacks, its own tables)
    result_channel = True  # (HOOKS) the RTS's heap exhaustion, said as a MemoryError

    def version(self, lines: list[str]) -> str:
        return f"ghc {lines[0].rsplit(' ', 1)[-1]}"  # "The Glorious Glasgow Haskell Compilation System, version 9.0.2"

    @property
    def compile_readable(self) -> tuple[str, ...]:
        """GHC's package database (Debian keeps it under /var/lib/ghc, linked from its libdir)."""
        toolchain = self.toolchain()
        return (_package_db(toolchain.programs["ghc"]),) if toolchain else ()

    def sources_of(self, files: dict[str, bytes]) -> list[str]:
        return [name for name in sorted(files) if Path(name).suffix.lower() in (".hs", ".c")]

    def build_argv(self, toolchain: Toolchain, files: list[str], entry: str) -> list[str]:
        return [toolchain.programs["ghc"], *FLAGS, *C_FLAGS, "-tmpdir", ".", "-o", "solution", *files, THREAD_STACK_FILE,
                HOOKS_FILE]

    def _build(self, toolchain, folder, files, entry):
        (folder / THREAD_STACK_FILE).write_text(THREAD_STACK)
        (folder / HOOKS_FILE).write_text(HOOKS)
        return super()._build(toolchain, folder, files, entry)

    def run_argv(self, toolchain: Toolchain, folder: Path, entry: str, memory_mib: int) -> list[str]:
        return [str(folder / "solution"), "+RTS", f"-M{memory_mib}m", f"-K{STACK_MIB}m", "-RTS"]


_DB: dict[str, str] = {}


def _package_db(ghc: str) -> str:
    """The real folder of GHC's global package database (asked once per process)."""
    if ghc not in _DB:
        try:
            said = subprocess.run([ghc, "--print-global-package-db"], capture_output=True, text=True, timeout=60)
            _DB[ghc] = str(Path(said.stdout.strip()).resolve()) if said.returncode == 0 else ""
        except (OSError, subprocess.SubprocessError):
            _DB[ghc] = ""
    return _DB[ghc]


HASKELL = Haskell()
