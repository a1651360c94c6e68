"""What the languages of Kattis packages beyond C, C++, Java and Kotlin share: each is a standard-input
program only, compiled (or, for an interpreter, syntax-checked) by one command into a build folder of
its own and run by one command, both as problemtools' languages.yaml gives them (rust.py, go.py,
haskell.py, csharp.py, javascript.py, pypy.py, ruby.py say which, and where this machine's version
differs).

The build is confined, limited and cached as every compile is (build.py); the run is one execve, in a
fresh confined child, of the built binary or of the language's runtime (node, mono, pypy3, ruby) on the
build folder's entry file, under the language's own sandbox profile (engine/sandbox/profiles.py). What
the runtime maps beyond the program's own data (a GC's reservations, its threads' stacks) is the
language's `data_extra_mib`: measured so that a program that keeps allocating passes the memory limit
in the kernel's figures (MLE) before its runtime's own allocation fails (docs/languages.md).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from .base import CompileError, Language, Toolchain, flatten, safe_file_name, write_files
from .build import SYSTEM_READABLE, CompileLimits, cached_build, first_errors, run_confined
from .versions import version_output

SEARCHED = "/usr/local/bin:/usr/bin:/bin"  # the system's programs: never a user's ~/.cargo/bin or the like


class ProgramLanguage(Language):
    """A language of standard-input programs built by one command and run by another. A subclass sets
    the attributes and `build_argv`, `run_argv` and `version`; `program` does the rest."""

    tools: tuple[str, ...] = ()  # the executables it needs, found on SEARCHED; the first is asked its version
    version_flag = "--version"
    flags: tuple[str, ...] = ()  # the compile command's flags (part of the build's cache key)
    profile = ""  # its sandbox profile (engine/sandbox/profiles.py)
    data_extra_mib = 0  # RLIMIT_DATA beyond the memory limit: what the runtime maps of its own
    stack_mib = 0  # RLIMIT_STACK of the run, where not the memory limit (0)
    compile_limits = CompileLimits()
    compile_readable: tuple[str, ...] = ()  # beyond the system folders: what the compiler reads
    run_tools: tuple[str, ...] = ()  # the tools a run execs (an interpreter's binary: readable and executable)
    run_readable: tuple[str, ...] = ()  # beyond the build folder and the runtime: what the run reads
    run_env: dict[str, str] = {}
    result_channel = False  # the result channel (descriptor 3) left open: something of ours says there how it ended

    def classes(self, source: str) -> set[str]:
        return set()  # only ever a standard-input program here

    def toolchain(self) -> Toolchain | None:
        if self.name not in _FOUND:
            _FOUND[self.name] = self._find()
        return _FOUND[self.name]

    def _find(self) -> Toolchain | None:
        found = {tool: shutil.which(tool, path=SEARCHED) for tool in self.tools}
        if not all(found.values()):
            return None
        programs = {tool: str(Path(path).resolve()) for tool, path in found.items()}
        said = version_output([programs[self.tools[0]], self.version_flag], timeout=60)
        if said is None:
            return None
        lines = [line.strip() for line in (said[0] + "\n" + said[1]).splitlines() if line.strip()]
        return Toolchain(self.version(lines) if lines else f"{self.tools[0]} (unknown version)", programs)

    def version(self, lines: list[str]) -> str:
        """The one line `doctor` shows and the build cache keys on, from what the version flag printed."""
        return lines[0]

    def build_argv(self, toolchain: Toolchain, files: list[str], entry: str) -> list[str] | None:
        """The compile (or syntax check) of the sources (`files`, relative to the build folder), or None
        for none."""
        raise NotImplementedError

    def run_argv(self, toolchain: Toolchain, folder: Path, entry: str, memory_mib: int) -> list[str]:
        """The run of a built program (argv[0] an absolute path: the one execve the child makes)."""
        raise NotImplementedError

    def compile_env(self, toolchain: Toolchain, folder: Path) -> dict[str, str]:
        return {}

    def sources_of(self, files: dict[str, bytes]) -> list[str]:
        """The files the compile command is given: this language's, in name order."""
        return [name for name in sorted(files) if Path(name).suffix.lower() in self.source_extensions]

    def finish(self, folder: Path) -> None:
        """After a successful build: what of the compiler's work is not kept (its caches)."""

    def program(self, path: Path, problem, source_limit: int) -> dict:
        self.only_programs(problem)
        fallback = f"main{self.source_extensions[0]}"
        toolchain, files = self.to_compile(path, problem, source_limit, fallback)
        # the package's included entry point (the submission is the part it calls), else a folder's entry
        # file, else the one file itself
        entry = self.included_entry(problem) or (self.entry_file(files) if Path(path).is_dir()
                                                 else safe_file_name(Path(path).name, fallback))
        outcome = cached_build([self.name, toolchain.version, self.flags, entry, *flatten(files)],
                               lambda folder: self._build(toolchain, folder, files, entry))
        if not outcome.ok:
            raise CompileError(outcome.message)
        runtime = [path for tool, path in toolchain.programs.items() if tool in self.run_tools]
        return {"argv": self.run_argv(toolchain, outcome.folder, entry, problem.memory_limit),
                "env": {"LC_ALL": "C.UTF-8", **self.run_env},
                "readable": [str(outcome.folder), *runtime, *(p for p in self.run_readable if os.path.exists(p))],
                "profile": self.profile, "data_extra_mib": self.data_extra(problem.memory_limit),
                "stack_mib": self.stack_mib, "result_channel": self.result_channel}

    def data_extra(self, memory_mib: int) -> int:
        """RLIMIT_DATA beyond the memory limit, in MiB."""
        return self.data_extra_mib

    def _build(self, toolchain: Toolchain, folder: Path, files: dict[str, bytes], entry: str):
        write_files(folder, files)
        argv = self.build_argv(toolchain, self.sources_of(files), entry)
        if argv is None:
            return True, "", {}
        env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "TMPDIR": str(folder), "HOME": str(folder),
               **self.compile_env(toolchain, folder)}
        readable = [*SYSTEM_READABLE, *(path for path in self.compile_readable if os.path.exists(path))]
        status, message = run_confined(argv, folder, readable, env, self.compile_limits)
        if status != 0:  # (the messages name each file as the contestant does, not by the build folder's path)
            message = first_errors(message.replace(f"{folder}/", ""))
            return False, message or f"the compiler exited with status {status}", {}
        self.finish(folder)
        return True, "", {}


_FOUND: dict[str, Toolchain | None] = {}  # language name -> its toolchain, found once per process
