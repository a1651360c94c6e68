"""Rust: standard-input programs (Kattis packages have Rust submissions), compiled by Debian's rustc as
problemtools' languages.yaml compiles them: `rustc -C opt-level=3 -C target-cpu=native --crate-type bin
--edition 2021 main.rs` (the entry file; its `mod` files beside it are found by rustc). The binary is
run in a fresh confined child under the rust profile (one execve, no JIT memory), as C++ is.
"""

from __future__ import annotations

import re
from pathlib import Path

from .base import Toolchain
from .programs import ProgramLanguage

FLAGS = ("-C", "opt-level=3", "-C", "target-cpu=native", "--crate-type", "bin", "--edition", "2021", "--color", "never")


class Rust(ProgramLanguage):
    name = "rust"
    title = "Rust"
    extensions = (".rs",)
    layers = ("standard-input programs; compiled by rustc confined (rlimits, Landlock, process group), cached; each "
              "test execs the binary in a fresh confined child: rlimits, Landlock, seccomp (rust profile: one execve)")
    install_hint = "rustc was not found on PATH (Debian/Ubuntu: apt install rustc)"
    kattis_code = "rust"
    entry_marker = re.compile(r"^\s*(?:pub\s+)?fn\s+main\s*\(", re.MULTILINE)
    tools = ("rustc",)
    flags = FLAGS
    profile = "rust"
    data_extra_mib = 32

    def build_argv(self, toolchain: Toolchain, files: list[str], entry: str) -> list[str]:
        return [toolchain.programs["rustc"], *FLAGS, entry, "-o", "solution"]

    def run_argv(self, toolchain: Toolchain, folder: Path, entry: str, memory_mib: int) -> list[str]:
        return [str(folder / "solution")]


RUST = Rust()
