"""Python: the zygote compiles the source itself and runs it in its forked child (no exec)."""

from __future__ import annotations

import ast
import platform
import re
import sys

from .base import Language, Toolchain

CLASS_LINE = re.compile(r"^class\s+([A-Za-z_]\w*)", re.MULTILINE)


class Python(Language):
    name = "python"
    title = "Python"
    extensions = (".py",)
    layers = ("forked from a zygote that compiled the source once; rlimits, Landlock, seccomp "
              "(interpreter profile: no execve)")

    def classes(self, source: str) -> set[str]:
        """Top-level class names; a file that does not parse is scanned by regex (so it can still get CE)."""
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return set(CLASS_LINE.findall(source))
        return {node.name for node in tree.body if isinstance(node, ast.ClassDef)}

    def toolchain(self) -> Toolchain:
        return Toolchain(f"{platform.python_implementation()} {platform.python_version()}", {"python": sys.executable})


PYTHON = Python()
