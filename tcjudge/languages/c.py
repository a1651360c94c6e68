"""C: standard-input programs (Kattis and ICPC packages have C submissions; TopCoder had no C), the
file alone with its own main, compiled as Kattis compiles C: gcc -std=gnu17 -O2 -static, with the
maths library. Confined, limited and cached like C++ (build.py); each test execs the binary in a
fresh confined child with the native profile, its one execve decided from outside (sandbox.exec_token).
"""

from __future__ import annotations

import functools
from pathlib import Path

from .base import CompileError, Language, Toolchain, defines_c_main, flatten, gnu_compiler, write_files
from .build import SYSTEM_READABLE, cached_build, first_errors, run_confined

FLAGS = ("-std=gnu17", "-O2", "-static", "-w", "-fmax-errors=5", "-pipe")
LIBRARIES = ("-lm",)
# The stack limit of a test is its memory limit (the main stack may grow that far), and glibc makes a
# thread's default stack as large as the stack limit: every pthread_create with default attributes
# then failed (EAGAIN, the data limit), and DOMjudge's hello/test-multithread.c, which ignores that,
# crashed joining a thread that never was. Linked into every C and C++ program (valid C and C++; a
# name with a leading dot, which no submitted file has: protocol.read_tree leaves them out), this
# gives a thread the default glibc gives where there is no stack limit (x86_64: 2 MiB; DOMjudge runs
# so), before main; a program's own attributes and pthread_attr_setstacksize still choose.
THREAD_STACK_FILE = ".tcjudge_thread_stack.c"
THREAD_STACK_MIB = 2
THREAD_STACK = f"""#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
__attribute__((constructor)) static void tcjudge_thread_stack(void) {{
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) return;
    if (pthread_attr_setstacksize(&attr, {THREAD_STACK_MIB}u << 20) == 0) pthread_setattr_default_np(&attr);
    pthread_attr_destroy(&attr);
}}
"""


class CLanguage(Language):
    name = "c"
    title = "C"
    extensions = (".c",)
    layers = ("standard-input programs; compiled confined (rlimits, Landlock, process group), cached; each test "
              "execs the binary in a fresh confined child: rlimits, Landlock, seccomp (native profile: one execve)")
    install_hint = "gcc was not found on PATH (Debian/Ubuntu: apt install gcc)"
    kattis_code = "c"

    def classes(self, source: str) -> set[str]:
        return set()  # C has no classes: a C file can only be a program for a standard-input problem

    def defines_entry(self, file: Path) -> bool:
        """An included source that defines main is the program (a binary has no main file)."""
        return file.suffix.lower() in self.extensions and defines_c_main(file)

    def toolchain(self) -> Toolchain | None:
        return _gcc()

    def program(self, path: Path, problem, source_limit: int) -> dict:
        self.only_programs(problem)
        folder = self.build(path, problem, source_limit).folder
        return {"argv": [str(folder / "solution")], "env": {"LC_ALL": "C.UTF-8"},
                "readable": [str(folder)], "profile": "native", "data_extra_mib": 0, "result_channel": False}

    def build(self, path: Path, problem, source_limit: int):
        """The compiled program (cached): the file, or every C file of a folder together."""
        toolchain, files = self.to_compile(path, problem, source_limit, "solution.c")
        outcome = cached_build([self.name, toolchain.version, FLAGS, LIBRARIES, THREAD_STACK, *flatten(files)],
                               lambda folder: _compile(toolchain, folder, files))
        if not outcome.ok:
            raise CompileError(outcome.message)
        return outcome


def _compile(toolchain: Toolchain, folder: Path, files: dict[str, bytes]):
    write_files(folder, files)
    units = [name for name in sorted(files) if Path(name).suffix.lower() in C.extensions] + [THREAD_STACK_FILE]
    (folder / THREAD_STACK_FILE).write_text(THREAD_STACK)
    argv = [toolchain.programs["gcc"], *FLAGS, "-x", "c", *units, "-o", "solution", *LIBRARIES]
    status, message = run_confined(argv, folder, list(SYSTEM_READABLE), {"PATH": "/usr/bin:/bin",
                                                                         "TMPDIR": str(folder), "LC_ALL": "C"})
    return (True, "", {}) if status == 0 else (False, first_errors(message), {})


@functools.cache
def _gcc() -> Toolchain | None:
    return gnu_compiler("gcc")


C = CLanguage()
