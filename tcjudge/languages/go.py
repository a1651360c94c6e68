"""Go: standard-input programs (Kattis packages have Go submissions), built by Debian's Go toolchain
(golang-go: `go build -o solution *.go`, its cache and work folders inside the build folder, cgo off so
the binary is static and no C compiler is asked). problemtools' languages.yaml builds Go with gccgo;
Debian's golang-go is the gc toolchain that Kattis and DOMjudge use. The binary runs in a fresh confined
child under the go profile: its runtime starts several threads (allowed: clone with CLONE_THREAD) and
maps its heap in 4 MiB steps beside about 45 MiB of its own (data_extra_mib).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from .base import Toolchain
from .programs import ProgramLanguage

FLAGS = ("build", "-o", "solution")
CACHE, GOPATH = ".gocache", ".gopath"  # the compiler's own folders, inside the build folder, removed after it


class Go(ProgramLanguage):
    name = "go"
    title = "Go"
    extensions = (".go",)
    layers = ("standard-input programs; built by go build confined (rlimits, Landlock, process group), cached; "
              "each test execs the static binary in a fresh confined child: rlimits, Landlock, seccomp (go "
              "profile: one execve, threads)")
    install_hint = "go was not found on PATH (Debian/Ubuntu: apt install golang-go)"
    kattis_code = "go"
    entry_marker = re.compile(r"^func\s+main\s*\(", re.MULTILINE)
    tools = ("go",)
    version_flag = "version"

    def version(self, lines: list[str]) -> str:
        return lines[0].removeprefix("go version ")  # "go version go1.19.8 linux/amd64"
    flags = FLAGS
    profile = "go"
    data_extra_mib = 64

    def build_argv(self, toolchain: Toolchain, files: list[str], entry: str) -> list[str]:
        return [toolchain.programs["go"], *FLAGS, *files]

    def compile_env(self, toolchain: Toolchain, folder: Path) -> dict[str, str]:
        return {"GOCACHE": str(folder / CACHE), "GOPATH": str(folder / GOPATH), "CGO_ENABLED": "0",
                "GO111MODULE": "off", "GOPROXY": "off", "GOFLAGS": "", "GOTOOLCHAIN": "local"}

    def finish(self, folder: Path) -> None:
        for name in (CACHE, GOPATH):
            shutil.rmtree(folder / name, ignore_errors=True)

    def run_argv(self, toolchain: Toolchain, folder: Path, entry: str, memory_mib: int) -> list[str]:
        return [str(folder / "solution")]


GO = Go()
