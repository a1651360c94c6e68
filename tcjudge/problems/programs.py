"""A package's own programs (output validators, interactors, graders, input validators, testlib
checkers): which programs a slot holds (`slot_programs`, every slot alike), how each is made runnable
from the layouts the package formats allow, and the limits it runs under (`limited`).

The format's rule (2023-07 and 2025-09 "Programs"; legacy packages use the same layouts): a program
is one file or a folder. A folder with a `build` script is copied and built there, then its `run`
is the program; a folder with `run` alone runs it; otherwise the folder is its sources: Python (one
file, a `__main__.py` package, or `main.py` / the one file marked as a program beside its helper
modules), C or C++ (every source compiled together, headers beside them), Java (every class
compiled, the one with `main` run). A folder that holds nothing but one folder is that folder (the
2023-07 drafts' `output_validator/NAME/`, as problemtools reads it). A single file is a Python, C,
C++ or Java source, or an executable, with the files beside it that are no program (headers, helper
modules) copied beside it. 2025-09 `{{constants}}` are substituted in the sources
(`constants.py`) before they are built. Every failure is a ProgramFailed whose one line names the
program and what went wrong, with the last lines its build said.
"""

from __future__ import annotations

import math
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .constants import substitute_file

PYTHON_SUFFIXES = (".py", ".py3")
C_SUFFIXES = (".c",)
CPP_SUFFIXES = (".cpp", ".cc", ".cxx", ".c++", ".cp")
JAVA_SUFFIXES = (".java",)
HEADER_SUFFIXES = (".h", ".hh", ".hpp", ".hxx", ".h++", ".inl", ".ipp", ".tcc")  # never a program by itself
SCRIPT_SUFFIXES = (".ctd", ".viva")  # an input validator's checktestdata or VIVA script
LANGUAGE = {**dict.fromkeys(PYTHON_SUFFIXES, "python"), **dict.fromkeys(C_SUFFIXES, "c"),
            **dict.fromkeys(CPP_SUFFIXES, "c++"), **dict.fromkeys(JAVA_SUFFIXES, "java")}
BUILD_TIMEOUT = 300  # seconds for a build script or a compiler
MAIN_MARK = re.compile(r"^if\s+__name__\s*==\s*['\"]__main__['\"]", re.MULTILINE)
JAVA_MAIN = re.compile(r"\bstatic\s+(?:public\s+)?void\s+main\s*\(")
C_MAIN = re.compile(r"\bmain\s*\(")
PYTHON_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(\w+)|import[ \t]+([\w \t,.]+))", re.MULTILINE)


class ProgramFailed(Exception):
    """The package's program cannot be made runnable: the package's fault, said in one line."""


def stderr_tail(data: bytes, lines: int = 2) -> str:
    """The last `lines` non-blank lines a program wrote, joined in one printable line (at most 300
    characters): where a build or a run says why it failed."""
    said = [line.strip() for line in data.decode("utf-8", "replace").splitlines() if line.strip()][-lines:]
    text = " | ".join(said)
    return "".join(ch if ch.isprintable() else "?" for ch in text)[-300:]


def limited(command: list[str], cpu_seconds: float, memory_mib: int) -> list[str]:
    """`command` run under a package program's limits, set before its exec by the shell that then
    becomes it (a preexec_fn is unsafe in the judge's threads, and a limit set once the program runs
    races it; where its stack may grow is fixed at exec): CPU seconds (SIGXCPU, SIGKILL a second
    later), address space, and an unlimited stack, as problemtools runs every program (a validator's
    deep recursion got SIGSEGV at the judge's 8 MiB). A JVM gets no address-space limit, as
    problemtools runs Java: it reserves more than it uses and would not start. Each is capped at the
    judge's own hard limit."""
    cpu = math.ceil(cpu_seconds)
    words = [f"ulimit -S -t {_capped(resource.RLIMIT_CPU, cpu)}", f"ulimit -H -t {_capped(resource.RLIMIT_CPU, cpu + 1)}",
             f"ulimit -s {_capped(resource.RLIMIT_STACK, resource.RLIM_INFINITY)}"]
    if Path(command[0]).name != "java":
        words.append(f"ulimit -v {_capped(resource.RLIMIT_AS, memory_mib << 20, 1024)}")
    return ["/bin/sh", "-c", " && ".join(words) + ' && exec "$@"', "sh", *command]


def _capped(limit: int, value: int, unit: int = 1) -> str:
    """`value` (RLIM_INFINITY: no limit) at most the judge's hard `limit`, as ulimit writes it in `unit`s."""
    hard = resource.getrlimit(limit)[1]
    if hard != resource.RLIM_INFINITY and (value == resource.RLIM_INFINITY or value > hard):
        value = hard
    return "unlimited" if value == resource.RLIM_INFINITY else str(value // unit)


def slot_programs(slot: Path, one: bool = False) -> list[Path]:
    """The programs of a slot (output_validators/, input_validators/, graders/, output_validator/ ...),
    as problemtools reads them, every slot alike: each folder in it is one program; each file that is
    an entry point (`entry_points`) is one, and the files beside it that are not (headers, helper
    modules, data) belong to it (`prepare` copies them beside it), so that `checker.cpp` with a loose
    `testlib.h` is one program, not two. A slot with `build` or `run`, or whose sources show no entry
    point, is one program: itself. `one`: the format makes the slot one program (2023-07's
    output_validator/ and input_validator/): itself, when it holds anything."""
    if not slot.is_dir():
        return []
    inside = _visible(slot)
    if not inside:
        return []
    if one or (slot / "build").is_file() or (slot / "run").is_file():
        return [slot]
    entries = entry_points(slot)
    if not entries and any(p.suffix in LANGUAGE for p in inside):
        return [slot]
    return sorted([p for p in inside if p.is_dir()] + entries, key=lambda p: p.name)


def entry_points(folder: Path) -> list[Path]:
    """The files of `folder` that are programs: a Python file that no file beside it imports (or one
    marked `if __name__ == "__main__"`), a C, C++ or Java source that defines `main`, an executable of
    no source or header suffix, a validation script (`*.ctd`, `*.viva`)."""
    files = [p for p in _visible(folder) if p.is_file()]
    texts = {p: p.read_text(encoding="utf-8", errors="replace") for p in files if p.suffix in LANGUAGE}
    imported = {name.strip().split(".")[0].split()[0]
                for p, text in texts.items() if LANGUAGE[p.suffix] == "python"
                for match in PYTHON_IMPORT.finditer(text)
                for name in (match.group(1) or match.group(2)).split(",") if name.strip()}
    mark = {"python": MAIN_MARK, "c": C_MAIN, "c++": C_MAIN, "java": JAVA_MAIN}
    found = []
    for path in files:
        language = LANGUAGE.get(path.suffix)
        if language == "python":
            program = path.stem not in imported or MAIN_MARK.search(texts[path])
        elif language is not None:
            program = mark[language].search(texts[path])
        else:
            program = path.suffix in SCRIPT_SUFFIXES or (
                os.access(path, os.X_OK) and path.suffix not in HEADER_SUFFIXES and path.name not in ("build", "run")
                and not path.name.upper().startswith("README"))
        if program:
            found.append(path)
    return found


def helpers(program: Path) -> list[Path]:
    """The files beside a program file that belong to it: those of its folder that are no program."""
    entries = set(entry_points(program.parent))
    return [p for p in _visible(program.parent) if p.is_file() and p != program and p not in entries]


def _visible(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if not p.name.startswith(".") and p.name != "__pycache__")


def program_folder(path: Path) -> Path:
    """The folder (or file) that is the program: a folder holding only one folder (and no file but
    a README) is that folder, as the 2023-07 drafts' `output_validator/NAME/` holds it."""
    while path.is_dir():
        entries = [p for p in path.iterdir() if not p.name.startswith(".")]
        folders = [p for p in entries if p.is_dir()]
        files = [p for p in entries if p.is_file() and not p.name.upper().startswith("README")]
        if len(folders) != 1 or files:
            break
        path = folders[0]
    return path


def prepare(path: Path, describe: str, scratch: list, constants: dict[str, str] | None = None) -> list[str]:
    """The command that runs the program at `path` (a file or a folder), building it first in a
    scratch folder that `scratch` keeps alive (the caller holds the list as long as the command).
    ProgramFailed with the reason, naming the program as `describe` does."""
    path = program_folder(Path(path))
    folder = Path(tempfile.mkdtemp(prefix="judge-program-"))
    scratch.append(_Remover(folder))
    work = folder / (path.name if path.is_dir() else path.stem or "program")
    if path.is_dir():
        _copy_following_links(path, work)
    else:
        work.mkdir()
        for file in [path, *helpers(path)]:
            shutil.copy2(file, work / file.name)
    if constants:
        for file in work.rglob("*"):
            if file.is_file() and not file.is_symlink():
                substitute_file(file, constants)
    if path.is_dir() and ((work / "build").is_file() or (work / "run").is_file()):
        return _build_and_run(work, describe)
    if path.is_file() and path.suffix not in LANGUAGE:
        if os.access(path, os.X_OK):
            return [str(work / path.name)]
        raise ProgramFailed(f"{describe}: not a supported program (a Python, C, C++ or Java source, an "
                            f"executable, or a folder of them, or with 'build' / 'run' scripts)")
    return _from_sources(work, describe, work / path.name if path.is_file() else None)


def _copy_following_links(source: Path, target: Path, depth: int = 0) -> None:
    """Copy a program's folder, links followed: a package's program may link a header kept elsewhere
    in its repository (BAPCtools' test packages link its validation.h); a link that leads nowhere is
    left out. (shutil.copytree tells a dangling relative link against the working folder, not the
    link's own.)"""
    target.mkdir()
    for entry in sorted(source.iterdir()):
        if not entry.exists():
            continue
        if entry.is_dir():
            if depth < 8:
                _copy_following_links(entry, target / entry.name, depth + 1)
        else:
            shutil.copy2(entry, target / entry.name)


class _Remover:
    """Removes a scratch folder when the last holder lets it go (as a TemporaryDirectory would)."""

    def __init__(self, folder: Path):
        self.folder = folder

    def __del__(self):
        shutil.rmtree(self.folder, ignore_errors=True)


def _build_and_run(work: Path, describe: str) -> list[str]:
    """The format's `build` then `run`: build runs in (a copy of) the program folder."""
    build = work / "build"
    if build.is_file():
        command = ["./build"] if os.access(build, os.X_OK) else ["sh", "./build"]
        try:
            done = subprocess.run(command, cwd=work, capture_output=True, timeout=BUILD_TIMEOUT)
        except (OSError, subprocess.TimeoutExpired) as err:
            raise ProgramFailed(f"{describe}: its build script failed: {err}") from None
        if done.returncode != 0:
            tail = stderr_tail(done.stderr or done.stdout)
            raise ProgramFailed(f"{describe}: its build script exited with status {done.returncode}"
                                + (f": {tail}" if tail else ""))
    run = work / "run"
    if not run.is_file():
        raise ProgramFailed(f"{describe}: its build script made no 'run'")
    return [str(run)] if os.access(run, os.X_OK) else ["sh", str(run)]


CPP_STANDARDS = ("gnu++23", "gnu++2b", "gnu++20", "gnu++17")  # problemtools: gnu++23 (g++ 11 says gnu++2b)
C_STANDARDS = ("gnu17", "gnu11")  # problemtools: gnu17


def _from_sources(work: Path, describe: str, entry: Path | None = None) -> list[str]:
    """A folder of sources in one language (the first of Python, C++, C, Java that it holds), or one
    `entry` file with the helpers of its own language beside it."""
    files = sorted(p for p in work.iterdir() if p.is_file())
    if entry is not None:
        files = [p for p in files if LANGUAGE.get(p.suffix) == LANGUAGE[entry.suffix]]
    python = [p for p in files if p.suffix in PYTHON_SUFFIXES]
    cpp = [p for p in files if p.suffix in CPP_SUFFIXES]
    c = [p for p in files if p.suffix in C_SUFFIXES]
    java = [p for p in files if p.suffix in JAVA_SUFFIXES]
    if entry is None and (work / "__main__.py").is_file():  # a package: run as a module, for its relative imports
        if not work.name.isidentifier():
            return [sys.executable, str(work)]
        start = (f"import runpy, sys; sys.path.insert(0, {str(work.parent)!r}); "
                 f"runpy.run_module({work.name!r}, run_name='__main__', alter_sys=True)")
        return [sys.executable, "-c", start]
    if python:
        return [sys.executable, str(entry or _python_entry(python))]
    if cpp:
        return _compile("g++", CPP_STANDARDS, cpp, work, describe)
    if c:
        return _compile("gcc", C_STANDARDS, c, work, describe, ["-lm"])
    if java:
        return _java(java, work, describe)
    executables = [p for p in files if os.access(p, os.X_OK)]
    if len(executables) == 1:
        return [str(executables[0])]
    raise ProgramFailed(f"{describe}: not a supported program (a Python, C, C++ or Java source, an executable, "
                        f"or a folder of them, or with 'build' / 'run' scripts)")


def _python_entry(files: list[Path]) -> Path:
    """`main.py`, else the one file marked as a program, else the one no other file imports, else the
    first by name (problemtools' rule, helper modules skipped)."""
    mains = [p for p in files if p.stem.lower() == "main"]
    if mains:
        return mains[0]
    marked = [p for p in files if MAIN_MARK.search(p.read_text(encoding="utf-8", errors="replace"))]
    if len(marked) == 1:
        return marked[0]
    entries = [p for p in entry_points(files[0].parent) if p in files]
    return entries[0] if len(entries) == 1 else files[0]


class NotCompiled(ProgramFailed):
    """The compiler ran and refused the program (under another standard it may compile)."""


def _compile(compiler: str, standards: tuple[str, ...], sources: list[Path], work: Path, describe: str,
             after: list[str] = ()) -> list[str]:
    """Built under the first of `standards` that compiles it (the newest first, as problemtools builds a
    package's programs: a validator in C++20 was refused under gnu++17, issue 46; a compiler that does
    not know a standard fails at once); a program that compiles under none is refused with the first's
    error."""
    binary = work / ".judge-program"
    first_failure = None
    for standard in standards:
        command = [compiler, "-O2", f"-std={standard}", "-I", str(work), "-o", str(binary), *map(str, sources), *after]
        try:
            _run_build(command, work, describe, compiler)
            return [str(binary)]
        except NotCompiled as failed:  # (a compiler that cannot run, or runs out of time, is not tried again)
            first_failure = first_failure or failed
    raise first_failure


def _java(sources: list[Path], work: Path, describe: str) -> list[str]:
    classes = work / ".judge-classes"
    _run_build(["javac", "-encoding", "UTF-8", "-d", str(classes), *map(str, sources)], work, describe, "javac")
    mains = [p for p in sources if JAVA_MAIN.search(p.read_text(encoding="utf-8", errors="replace"))]
    main = (mains or sources)[0]
    entry = main.stem
    package = re.search(r"^\s*package\s+([\w.]+)\s*;", main.read_text(encoding="utf-8", errors="replace"), re.MULTILINE)
    return ["java", "-Xss64m", "-cp", str(classes), f"{package.group(1)}.{entry}" if package else entry]


def _run_build(command: list[str], work: Path, describe: str, tool: str) -> None:
    try:
        done = subprocess.run(command, cwd=work, capture_output=True, timeout=BUILD_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise ProgramFailed(f"{describe}: cannot compile with {tool}: {err}") from None
    if done.returncode != 0:
        errors = [line for line in done.stderr.splitlines() if b"error" in line.lower()][:1]
        raise NotCompiled(f"{describe}: {tool} failed: {stderr_tail(errors[0] if errors else done.stderr)}")
