"""C++: the contestant's file, as written, compiled with the judge's entry point (g++ -O2).

The generated translation unit includes our runtime (runtime/tcjudge.hpp) first, then the file with
`main` renamed (files often carry their own main() for local testing: it is compiled, never
called), then one generated function naming the problem's class and method and its signature in
TopCoder types, checked against the contestant's declaration at compile time. Arguments are
decoded into the parameter types as declared (so `const vector<int>&` or `long long` for an int
work), the returned value is sent back as JSON and type-checked by the judge as for Python.

A standard-input program (problem.kind.program) is the file alone, its own main() included, as
CodeChef or Kattis compile it: it reads the test's input on descriptor 0 and its standard output
is the answer, and it ends with its exit status. Nothing of ours is linked in: that it may exec
nothing after the one execve that started it is the sandbox's doing, from outside (sandbox.exec_token).

Archive rule: gnu++17 first; if that fails, gnu++14. Code written for the compilers of its
contest can clash with names C++17 added to std (a TopCoder submission defining its own `size`
next to `using namespace std;`); a file that compiles under neither gets gnu++17's messages.
A Kattis/ICPC package's program is compiled once, at the newest standard the installed g++ takes
(problemtools and Kattis compile C++ with -std=gnu++23: a package's C++20 submission must compile).
"""

from __future__ import annotations

import functools
import re
import shutil
from pathlib import Path

from ..problems.tctypes import TCType
from .base import CompileError, Language, Toolchain, code_only, defines_c_main, flatten, gnu_compiler, write_files
from .build import SYSTEM_READABLE, cached_build, deadline, first_errors, run_confined
from .c import THREAD_STACK, THREAD_STACK_FILE
from .cpp_header import header_folder
from .versions import version_output

RUNTIME = Path(__file__).with_name("runtime") / "tcjudge.hpp"
STANDARDS = ("gnu++17", "gnu++14")  # tried in order: the first that compiles is used
PACKAGE_STANDARDS = ("gnu++23", "gnu++2b", "gnu++20", "gnu++17")  # a package's: the first this g++ takes
FLAGS = ("-O2", "-static", "-w", "-fmax-errors=5", "-pipe")  # static: half the CPU of a dynamic exec per test
CLASS_DEFINITION = re.compile(r"\b(?:class|struct)\s+([A-Za-z_]\w*)\s*(?:final\s*)?(?::[^;{}]*)?\{")
IDENTIFIER = re.compile(r"[A-Za-z_]\w*\Z")
TAGS = {"int": "Int", "long": "Long", "double": "Double", "String": "String", "boolean": "Boolean"}
CPP_TYPES = {"int": "int", "long": "long long", "double": "double", "String": "string", "boolean": "bool"}


class Cpp(Language):
    name = "cpp"
    title = "C++"
    extensions = (".cpp", ".cc", ".cxx")
    layers = ("compiled confined (rlimits, Landlock, process group), cached; each test execs the binary in a "
              "fresh confined child: rlimits, Landlock, seccomp (native profile: one execve, then none)")
    install_hint = "g++ was not found on PATH (Debian/Ubuntu: apt install g++)"
    kattis_code = "cpp"

    def classes(self, source: str) -> set[str]:
        return set(CLASS_DEFINITION.findall(code_only(source)))

    def defines_entry(self, file: Path) -> bool:
        """An included source that defines main is the program (a binary has no main file)."""
        return file.suffix.lower() in self.extensions and defines_c_main(file)

    def toolchain(self) -> Toolchain | None:
        return _gxx()

    def program(self, path: Path, problem, source_limit: int) -> dict:
        folder = self.build(path, problem, source_limit).folder
        return {"argv": [str(folder / "solution")], "env": {"LC_ALL": "C.UTF-8"},
                "readable": [str(folder)], "profile": "native",
                # a program's data is its own (an allocation of the whole limit fails, as on Kattis); our
                # method runtime (runtime/tcjudge.hpp) gets a share of its own
                "data_extra_mib": 0 if problem.kind.program else 32,
                "result_channel": not problem.kind.program,  # a stdin program answers on stdout alone
                "crash_channel": not problem.kind.program}  # our runtime's SIGSEGV evidence (runtime/tcjudge.hpp)

    def build(self, path: Path, problem, source_limit: int):
        """The compiled solution (cached); its detail names the C++ standard that compiled it."""
        toolchain, files = self.to_compile(path, problem, source_limit, "solution.cpp")
        entry = entry_point(problem) if not problem.kind.program else None
        if entry is not None and len(files) > 1:
            raise CompileError("a solution of several files is a standard-input program; this problem asks for a class")
        standards = STANDARDS if problem.kind.own_format else (newest_standard(toolchain.programs["g++"]),)
        outcome = cached_build(
            [self.name, toolchain.version, FLAGS, standards, RUNTIME.read_bytes(), THREAD_STACK, entry, *flatten(files)],
            lambda folder: _compile(toolchain, folder, files, entry, self.extensions, standards))
        if not outcome.ok:
            raise CompileError(outcome.message)
        return outcome


def entry_point(problem) -> str:
    """The generated end of the translation unit: problem.yaml's signature in TopCoder types, the
    check that the contestant declared it so, and the call."""
    for name in (problem.class_name, problem.method):
        if not IDENTIFIER.match(name):
            raise CompileError(f"problem.yaml names {name!r}, which is not a C++ identifier")
    signature = ", ".join(_tag(t) for t in [problem.returns] + [p.type for p in problem.parameters])
    declared = declaration(problem)
    method = f"&{problem.class_name}::{problem.method}"
    return (f"void tcjudge::entry() {{\n"
            f"    typedef tcjudge::Signature<{signature}> problem;\n"
            f"    static_assert(problem::matches({method}), \"{problem.class_name} must have a public method "
            f"{declared}\");\n"
            f"    problem::run({method});\n"
            f"}}\n")


def declaration(problem) -> str:
    """The method as a C++ solution declares it: problem.yaml's signature in C++ types (the contest's
    statement pages show it)."""
    return (f"{_cpp_type(problem.returns)} {problem.method}("
            + ", ".join(f"{_cpp_type(p.type)} {p.name}" for p in problem.parameters) + ")")


def _tag(t: TCType) -> str:
    tag = f"tcjudge::{TAGS[t.base]}"
    for _ in range(t.dims):
        tag = f"tcjudge::Array<{tag}>"
    return tag


def _cpp_type(t: TCType) -> str:
    name = CPP_TYPES[t.base]
    for _ in range(t.dims):
        name = f"vector<{name}>"
    return name


@functools.cache
def newest_standard(gxx: str) -> str:
    """The newest of PACKAGE_STANDARDS that this g++ takes (g++ 11 spells C++23 gnu++2b), found by
    preprocessing nothing under each (it prints its line markers only under a standard it knows);
    asked once per binary and remembered in the cache folder, as its version is (versions.py)."""
    for standard in PACKAGE_STANDARDS:
        said = version_output([gxx, f"-std={standard}", "-E", "-x", "c++", "/dev/null"], timeout=30)
        if said is not None and said[0].strip():
            return standard
    return STANDARDS[0]


def _compile(toolchain: Toolchain, folder: Path, files: dict[str, bytes], entry: str | None, extensions,
             standards: tuple[str, ...]):
    """Compile the files with our entry point (`entry`, one file), or alone when it is a stdin program
    (None: every C++ file of a folder, together, as Kattis builds one), under the first of `standards`
    that compiles them. No name starts with a dash (protocol.TREE_NAME, base.safe_file_name): none is
    an option to g++."""
    write_files(folder, files)
    if entry is None:
        units = [name for name in sorted(files) if Path(name).suffix.lower() in extensions]
    else:
        units = ["judge_main.cpp"]
        shutil.copyfile(RUNTIME, folder / "tcjudge.hpp")
        (folder / units[0]).write_text(
            f'#include "tcjudge.hpp"\n#define main tcjudge_contestant_main\n#include "{next(iter(files))}"\n'
            f'#undef main\n{entry}')
    units.append(THREAD_STACK_FILE)  # (c.py: a thread's default stack, as without a stack limit)
    (folder / THREAD_STACK_FILE).write_text(THREAD_STACK)
    env = {"PATH": "/usr/bin:/bin", "TMPDIR": str(folder), "LC_ALL": "C"}
    headers = {standard: header_folder(toolchain, standard, FLAGS, files) if entry is None else None
               for standard in standards}  # (made, if they are, before this build's wall bound starts)
    first_failure, until = None, deadline()  # both standards within one wall bound
    for standard in standards:
        header = headers[standard]
        argv = [toolchain.programs["g++"], f"-std={standard}", *FLAGS, *(["-isystem", header] if header else []),
                "-x", "c++", *units, "-o", "solution"]
        status, message = run_confined(argv, folder, list(SYSTEM_READABLE), env, until=until,
                                       builds=(header,) if header else ())
        if status == 0:
            return True, "", {"standard": standard}
        first_failure = first_failure or first_errors(message.replace(f"{header}/", "") if header else message)
        if status is None:  # stopped at its limits: another standard would fare no better
            break
    return False, first_failure, {}


@functools.cache
def _gxx() -> Toolchain | None:
    return gnu_compiler("g++")


CPP = Cpp()
