"""C#: standard-input programs (Kattis packages have C# submissions), compiled by Debian's Mono as
problemtools' languages.yaml compiles them (`mcs -out:solution.exe -optimize+ -r:System.Numerics`, every
`.cs` file together) and run by `mono solution.exe`, in a fresh confined child under the mono profile:
its JIT writes the machine code it runs (executable memory, as the JVM's), its collector stops threads
with signals within the process. Mono's finalizer thread takes a stack as large as the stack limit (the
memory limit), reserved and never touched, which RLIMIT_DATA counts: its data share is the limit more.
"""

from __future__ import annotations

import re
from pathlib import Path

from .base import Toolchain
from .programs import ProgramLanguage

FLAGS = ("-optimize+", "-r:System.Numerics")
RUNTIME_DATA_MIB = 64  # what mono maps of its own beyond the finalizer thread's stack


class CSharp(ProgramLanguage):
    name = "csharp"
    title = "C#"
    extensions = (".cs",)
    layers = ("standard-input programs; compiled by mcs confined (rlimits, Landlock, process group), cached; each "
              "test runs mono in a fresh confined child: rlimits, Landlock (/proc readable), seccomp (mono profile: "
              "one execve, JIT memory, scheduling calls ignored)")
    install_hint = "mcs and mono were not found on PATH (Debian/Ubuntu: apt install mono-mcs)"
    kattis_code = "csharp"
    entry_marker = re.compile(r"\bstatic\s+(?:async\s+)?(?:void|int|Task)\s+Main\s*\(")
    tools = ("mcs", "mono")
    flags = FLAGS
    profile = "mono"
    # /proc: mono asks glibc for its main thread's stack bounds, which reads /proc/self/maps, and aborts
    # when it cannot ("pthread_getattr_np failed with Permission denied"); Landlock cannot grant a
    # process its own /proc/<pid> alone (a rule names the inode of the zygote's), so /proc is readable
    compile_readable = ("/etc/mono", "/proc")
    run_readable = ("/etc/mono", "/proc")
    run_tools = ("mono",)

    def build_argv(self, toolchain: Toolchain, files: list[str], entry: str) -> list[str]:
        return [toolchain.programs["mcs"], "-out:solution.exe", *FLAGS, *files]

    def run_argv(self, toolchain: Toolchain, folder: Path, entry: str, memory_mib: int) -> list[str]:
        return [toolchain.programs["mono"], str(folder / "solution.exe")]

    def data_extra(self, memory_mib: int) -> int:
        return memory_mib + RUNTIME_DATA_MIB


CSHARP = CSharp()
