"""JavaScript: standard-input programs (Kattis packages have JavaScript submissions), run by Node.js as
problemtools' languages.yaml runs them (`nodejs main.js`, after `nodejs -c` checks its syntax), in a
fresh confined child under the node profile: V8's JIT writes the machine code it runs (executable
memory), and node starts five threads of its own at once (V8's workers, its inspector's), each with a
stack as large as the stack limit. That limit is 8 MiB here, not the memory limit: V8 bounds a
program's recursion itself (its --stack-size, under 1 MiB, whatever the process's stack), and five
stacks of the memory limit, which RLIMIT_DATA counts, left a program nothing.
"""

from __future__ import annotations

from pathlib import Path

from .base import Toolchain
from .programs import ProgramLanguage


class JavaScript(ProgramLanguage):
    name = "javascript"
    title = "JavaScript"
    extensions = (".js",)
    layers = ("standard-input programs; checked by node --check confined, cached; each test runs node in a fresh "
              "confined child: rlimits (an 8 MiB stack), Landlock, seccomp (node profile: one execve, JIT memory)")
    install_hint = "node was not found on PATH (Debian/Ubuntu: apt install nodejs)"
    kattis_code = "javascript"
    tools = ("node",)
    flags = ("--check",)
    profile = "node"
    data_extra_mib = 64
    stack_mib = 8
    run_tools = ("node",)
    # node reads OpenSSL's configuration as it starts, and cannot start where it may not ("OpenSSL
    # configuration error: ... Permission denied")
    compile_readable = run_readable = ("/etc/ssl/openssl.cnf",)

    def version(self, lines: list[str]) -> str:
        return f"Node.js {lines[0]}"

    def build_argv(self, toolchain: Toolchain, files: list[str], entry: str) -> list[str]:
        return [toolchain.programs["node"], "--check", entry]

    def run_argv(self, toolchain: Toolchain, folder: Path, entry: str, memory_mib: int) -> list[str]:
        return [toolchain.programs["node"], str(folder / entry)]


JAVASCRIPT = JavaScript()
