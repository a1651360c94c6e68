"""Python: the source is handed to the zygote, whose confined child compiles and runs it (no exec)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from .base import Language, Toolchain, read_folder, read_source

CLASS_LINE = re.compile(r"^class[ \t]+([A-Za-z_]\w*)", re.MULTILINE)
IMPLEMENTATIONS = {"cpython": "CPython", "pypy": "PyPy"}  # as platform.python_implementation() names them


class Python(Language):
    name = "python"
    title = "Python"
    extensions = (".py", ".py3")  # .py3: how some archives mark Python 3
    layers = ("compiled and run in a child forked from a zygote: rlimits, Landlock, seccomp "
              "(interpreter profile: no execve)")

    kattis_code = "python3"
    entry_marker = re.compile(r"^if\s+__name__\s*==\s*['\"]__main__['\"]", re.MULTILINE)

    def load_fields(self, path: Path, problem, source_limit: int) -> dict:
        """A multi-file program (a folder) or one with a package's included files: the file it starts
        from ("entry": Language.entry_file's rule; beside one file, the file itself unless the package
        includes a main.py, its driver) and the included folder; the zygote reads the files."""
        path, included = Path(path), self.included(problem)
        if not path.is_dir() and included is None:
            return {}
        extra = read_folder(included, source_limit) if included else {}
        if path.is_dir():
            entry = self.entry_file(read_folder(path, source_limit) | extra)
        else:
            read_source(path, source_limit)  # (CE here if it is not a file the zygote will read)
            drivers = [name for name in extra if name.lower() == "main.py"]
            entry = drivers[0] if drivers else path.name
        return {"entry": entry} | ({"include": str(included.resolve())} if included else {})  # (the zygote's cwd is /)

    def classes(self, source: str) -> set[str]:
        """Names after `class` at the start of a line: the judge never parses untrusted source (a
        hostile file can make ast.parse take gigabytes); the confined load says whether it is real."""
        return set(CLASS_LINE.findall(source))

    def toolchain(self) -> Toolchain:
        return Toolchain(f"{IMPLEMENTATIONS.get(sys.implementation.name, sys.implementation.name)} {sys.version.split()[0]}",
                         {"python": sys.executable})


PYTHON = Python()
