"""Python: the source is handed to the zygote, whose confined child compiles and runs it (no exec)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from .base import Language, Toolchain, read_folder, read_source

CLASS_LINE = re.compile(r"^class[ \t]+([A-Za-z_]\w*)", re.MULTILINE)
# Python 2, which the judge does not run, in a .py file: a `python2` shebang (problemtools' rule), or
# a statement Python 3 cannot parse (print without parentheses, `exec "..."`, `except E, name:`).
PYTHON2_SHEBANG = re.compile(rb"\A#![^\n]*(?:python2|pypy)\b")  # (pypy, without a 3: PyPy's Python 2)
PYPY3_SHEBANG = re.compile(rb"\A#![^\n]*\bpypy3\b")  # problemtools' and Kattis's Python 3 interpreter, asked for by name
PYTHON2_STATEMENT = re.compile(rb"^[ \t]*(?:print(?:[ \t]+(?![ \t]*[=(.,)\]:+*/%&|^<-])(?!>>?=)\S|[ \t]*$)|exec[ \t]+[\"'\w]"
                               rb"|except[ \t]+[\w.]+[ \t]*,[ \t]*\w+[ \t]*:)", re.MULTILINE)
TRIPLE_QUOTED = re.compile(rb"(\"\"\"|\'\'\')[\s\S]*?\1")
SCANNED = 1 << 20  # bytes of each file scanned for Python 2
IMPLEMENTATIONS = {"cpython": "CPython", "pypy": "PyPy"}  # as platform.python_implementation() names them


class Python(Language):
    name = "python"
    title = "Python"
    extensions = (".py", ".py3")  # .py3: how some archives mark Python 3
    layers = ("compiled and run in a child forked from a zygote: rlimits, Landlock, seccomp "
              "(interpreter profile: no execve); a Kattis package's Python 3 runs on PyPy 3 where it is installed")

    kattis_code = "python3"
    light_build = True  # (none for CPython; a package's PyPy build is a byte-compile)
    entry_marker = re.compile(r"^if\s+__name__\s*==\s*['\"]__main__['\"]", re.MULTILINE)

    def dialect(self, path: Path) -> Language:
        """PyPy 3 for a file whose `#!` line names pypy3 (a folder: any file at its top), else CPython."""
        path = Path(path)
        files = sorted(path.glob("*.py")) if path.is_dir() else [path]
        for file in files:
            try:
                with open(file, "rb") as handle:
                    first = handle.readline(SCANNED)
            except OSError:
                continue
            if PYPY3_SHEBANG.match(first):
                from .pypy import PYPY

                return PYPY
        return self

    def runner(self, problem) -> Language:
        """What runs a Python 3 file named by no `#!` line: for a Kattis package, PyPy 3 where it is
        installed (problemtools and Kattis run Python 3 there, and the package's time limit assumes it:
        docs/kattis.md), else CPython in the zygote (this language; our own problems always)."""
        if problem.kind.own_format:
            return self
        from .pypy import PYPY

        return PYPY if PYPY.toolchain() is not None else self

    def program(self, path: Path, problem, source_limit: int) -> dict | None:
        runner = self.runner(problem)
        return None if runner is self else runner.program(path, problem, source_limit)

    def machine_version(self, own_format: bool | None = None) -> str | None:
        """CPython's version, and PyPy 3's where it is installed unless the problem is in our own format:
        a package's Python 3 runs there (a TopCoder solution's verdict never depends on PyPy, and
        recording it imports no other language's module)."""
        if own_format:
            return self.toolchain().version
        from .pypy import PYPY

        pypy = PYPY.toolchain()
        return f"{self.toolchain().version}; {pypy.version}" if pypy else self.toolchain().version

    def load_fields(self, path: Path, problem, source_limit: int) -> dict:
        """A multi-file program (a folder) or one with a package's included files: the file it starts
        from ("entry": Language.entry_file's rule; beside one file, the file itself unless the package
        includes a main.py, its driver) and the included folder; the zygote reads the files."""
        if self.runner(problem) is not self:  # built and run as a program (PyPy 3)
            return self.tree_fields(problem)
        path, included = Path(path), self.included(problem)
        constants = {"constants": problem.constants} if getattr(problem, "constants", None) else {}
        if not path.is_dir() and included is None:
            return constants
        extra = read_folder(included, source_limit) if included else {}
        if path.is_dir():
            entry = self.entry_file(read_folder(path, source_limit) | extra)
        else:
            read_source(path, source_limit)  # (CE here if it is not a file the zygote will read)
            drivers = [name for name in extra if name.lower() == "main.py"]
            entry = drivers[0] if drivers else path.name
        return ({"entry": entry} | ({"include": str(included.resolve())} if included else {})  # (the zygote's cwd is /)
                | constants | self.tree_fields(problem))

    def classes(self, source: str) -> set[str]:
        """Names after `class` at the start of a line: the judge never parses untrusted source (a
        hostile file can make ast.parse take gigabytes); the confined load says whether it is real."""
        return set(CLASS_LINE.findall(source))

    def unsupported(self, path: Path) -> str | None:
        """Python 2 (a `python2` shebang, as problemtools tells the two apart, or a Python 2 statement at
        a line's start in a file Python 3 would refuse): said once, left out, never graded as a CE."""
        path = Path(path)
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in files:
            try:
                with open(file, "rb") as handle:
                    text = handle.read(SCANNED)
            except OSError:
                continue
            if PYTHON2_SHEBANG.match(text):
                return "Python 2 (its #! line names python2), which the judge does not run"
            found = PYTHON2_STATEMENT.search(_code_lines(text))
            if found:
                line = text[:found.start()].count(b"\n") + 1
                where = f"{file.name}:{line}" if path.is_dir() else f"line {line}"
                return f"Python 2 ({where}: {found.group().strip().decode('ascii', 'replace')[:30]}), which the judge does not run"
        return None

    def toolchain(self) -> Toolchain:
        return Toolchain(f"{IMPLEMENTATIONS.get(sys.implementation.name, sys.implementation.name)} {sys.version.split()[0]}",
                         {"python": sys.executable})


def _code_lines(text: bytes) -> bytes:
    """The text with triple-quoted strings blanked (newlines kept): a docstring's `print x` is prose."""
    return TRIPLE_QUOTED.sub(lambda m: b"\n" * m.group().count(b"\n"), text)


PYTHON = Python()
