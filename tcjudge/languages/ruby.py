"""Ruby: standard-input programs (Kattis packages have Ruby submissions), run as problemtools'
languages.yaml runs them (`ruby main.rb`, after `ruby -c` checks the entry file's syntax), in a fresh
confined child under the ruby profile (one execve; no JIT memory: Ruby 3.1 interprets unless told
--jit). The interpreter maps about 60 MiB of its own before the program runs (data_extra_mib).
"""

from __future__ import annotations

from pathlib import Path

from .base import Toolchain
from .programs import ProgramLanguage


class Ruby(ProgramLanguage):
    name = "ruby"
    title = "Ruby"
    extensions = (".rb",)
    layers = ("standard-input programs; checked by ruby -c confined, cached; each test runs ruby in a fresh confined "
              "child: rlimits, Landlock, seccomp (ruby profile: one execve)")
    install_hint = "ruby was not found on PATH (Debian/Ubuntu: apt install ruby)"
    kattis_code = "ruby"
    tools = ("ruby",)
    flags = ("-c",)
    profile = "ruby"
    data_extra_mib = 96
    run_tools = ("ruby",)

    def build_argv(self, toolchain: Toolchain, files: list[str], entry: str) -> list[str]:
        return [toolchain.programs["ruby"], "-c", entry]

    def run_argv(self, toolchain: Toolchain, folder: Path, entry: str, memory_mib: int) -> list[str]:
        return [toolchain.programs["ruby"], str(folder / entry)]


RUBY = Ruby()
