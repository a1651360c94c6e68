"""Kotlin: standard-input programs (Kattis and ICPC packages have Kotlin submissions), compiled by
kotlinc into one jar with the Kotlin runtime in it, run on the JDK by our Java runtime's Stdin entry
(java.py: the same JVM, limits and sandbox profile as a Java program).

The program's class is the format's: the entry file's name, first letter upper case, then `Kt`
(main.kt -> MainKt; problemtools' `{Mainclass}Kt`), in the entry file's package; a character of the
name that is not a letter or digit is `_` there, as kotlinc makes it (test-hello.kt -> Test_helloKt). A file or a folder
of files (every .kt file compiled together; the entry file chosen as Language.entry_file chooses it).
kotlinc is a JVM program too: it is confined as every compiler is (build.py), with its own home and
the JDK's readable. Where kotlinc is not installed, a package's Kotlin submissions are skipped with
one note per package (runs.py), never graded.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
from pathlib import Path

from .base import CompileError, Language, Toolchain, code_only, flatten, write_files
from .build import CompileLimits, cached_build, deadline, first_errors, run_confined
from .java import _jdk, compiler_readable, has_main, stdin_program
from .versions import version_output

FLAGS = ("-nowarn", "-include-runtime")
PACKAGE = re.compile(r"^\s*package\s+([\w.]+)", re.MULTILINE)
COMPILE_LIMITS = CompileLimits(cpu_seconds=120, wall_seconds=300.0, memory_mib=4096)  # kotlinc is a slow JVM
ENTRY = re.compile(r"^\s*fun\s+main\s*\(", re.MULTILINE)


class Kotlin(Language):
    name = "kotlin"
    title = "Kotlin"
    extensions = (".kt",)
    layers = ("standard-input programs; compiled by kotlinc confined (rlimits, Landlock, process group), cached; "
              "each test runs the jar in a JVM in a confined child: rlimits, -Xmx, Landlock, seccomp (jvm profile)")
    install_hint = "kotlinc was not found on PATH, or no JDK beside it"
    kattis_code = "kotlin"
    entry_marker = ENTRY

    def classes(self, source: str) -> set[str]:
        return set()  # a Kotlin file is only ever a standard-input program here

    def toolchain(self) -> Toolchain | None:
        return _kotlinc()

    def program(self, path: Path, problem, source_limit: int) -> dict:
        self.only_programs(problem)
        toolchain, files = self.to_compile(path, problem, source_limit, "main.kt")
        entry = self.entry_file(files)
        stem = Path(entry).stem
        package = PACKAGE.search(code_only(files[entry].decode("utf-8", "replace")))
        main_class = facade_class(stem)
        qualified = f"{package.group(1)}.{main_class}" if package else main_class
        outcome = cached_build([self.name, toolchain.version, FLAGS, qualified, *flatten(files)],
                               lambda folder: _compile(toolchain, folder, files, qualified))
        if not outcome.ok:
            raise CompileError(outcome.message)
        return stdin_program(toolchain, str(outcome.folder / "solution.jar"), qualified, problem.memory_limit)


def facade_class(stem: str) -> str:
    """The class kotlinc makes of a file's top-level functions, named as kotlinc names it: every
    character that is not a letter or a digit made `_`, the first letter upper case, then `Kt`
    (test-hello.kt -> Test_helloKt: DOMjudge's hello example; before, Test-helloKt, which no JVM has)."""
    name = re.sub(r"\W", "_", stem) or "_"
    return f"{name[:1].upper()}{name[1:]}Kt"


def _compile(toolchain: Toolchain, folder: Path, files: dict[str, bytes], qualified: str):
    write_files(folder / "src", files)
    units = [f"src/{name}" for name in sorted(files) if name.endswith(".kt")]
    argv = [toolchain.programs["kotlinc"], *FLAGS, "-d", "solution.jar", *units]
    env = {"PATH": f"{Path(toolchain.programs['java']).parent}:/usr/bin:/bin", "LC_ALL": "C.UTF-8",
           "JAVA_HOME": str(Path(toolchain.programs["java"]).parents[1]), "JAVA_OPTS": "-Xmx1g -XX:+UseSerialGC",
           "HOME": str(folder), "TMPDIR": str(folder)}
    until = deadline(COMPILE_LIMITS)  # kotlinc and javap within one wall bound
    status, message = run_confined(argv, folder, compiler_readable(toolchain), env, COMPILE_LIMITS, until)
    if status != 0 or not (folder / "solution.jar").is_file():
        return False, first_errors(message.replace("src/", "")), {}
    if not has_main(toolchain, folder, qualified, "solution.jar", until):
        return False, f"class {qualified} has no method main (the entry file needs `fun main`)", {}
    shutil.rmtree(folder / "src")
    return True, "", {}


@functools.cache
def _kotlinc() -> Toolchain | None:
    """kotlinc (its home: the folder above its bin/) and the JDK that runs the programs."""
    found = shutil.which("kotlinc", path="/usr/local/bin:/usr/bin:/bin")
    jdk = _jdk() if found else None
    if jdk is None:
        return None
    kotlinc = Path(found).resolve()
    said = version_output([str(kotlinc), "-version"], timeout=120)
    if said is None:
        return None
    line = (said[0] or said[1]).strip().splitlines()
    readable = {str(kotlinc.parents[1]), *jdk.programs["readable"].split(os.pathsep)}
    version = line[-1].removeprefix("info: ") if line else "kotlinc (unknown version)"  # (Debian's says "info: kotlinc-jvm ...")
    return Toolchain(version,
                     {**jdk.programs, "kotlinc": str(kotlinc), "readable": os.pathsep.join(sorted(readable))})


KOTLIN = Kotlin()
