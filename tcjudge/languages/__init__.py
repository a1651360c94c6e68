"""The languages a solution may be written in, one module each (as DMOJ's executors/).

A language says, from the file alone and without running or compiling it, which classes a file
declares; and it turns a solution into what the zygote runs: Python is compiled by the zygote
itself, C++ and Java are compiled here (confined, limited, cached: see build.py) into a program
that the zygote's forked child execs after entering the sandbox. docs/languages.md has the why.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from pathlib import Path

from ..errors import JudgeInputError
from .base import CompileError, Language, Toolchain, ToolchainMissing
from ..protected import project_folders
from ..record import record

__all__ = ["BuildFault", "C", "CPP", "JAVA", "KOTLIN", "PYTHON", "project_folders", "CompileError", "EXTENSIONS",
           "LANGUAGES", "Language", "Toolchain", "ToolchainMissing", "every_language", "for_path", "statuses"]

# Each language: its module, the name of its Language there, and its file extensions (which its
# Language.extensions repeats: tests/test_languages.py), in the order doctor lists them. A module is
# imported when its language is first asked for: grading a Python file imports no compiler's module.
REGISTRY: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("python", "PYTHON", (".py", ".py3")), ("cpp", "CPP", (".cpp", ".cc", ".cxx")), ("java", "JAVA", (".java",)),
    ("c", "C", (".c",)), ("kotlin", "KOTLIN", (".kt",)), ("rust", "RUST", (".rs",)),
    ("go", "GO", (".go",)), ("haskell", "HASKELL", (".hs",)), ("csharp", "CSHARP", (".cs",)),
    ("javascript", "JAVASCRIPT", (".js",)), ("pypy", "PYPY", ()), ("ruby", "RUBY", (".rb",)))
_MODULES = {name: module for module, name, _ in REGISTRY}


def every_language() -> tuple[Language, ...]:
    return tuple(_language(name) for name in _MODULES)


def _language(name: str) -> Language:
    return getattr(importlib.import_module(f".{_MODULES[name]}", __name__), name)


def __getattr__(name: str):
    """PYTHON, CPP, JAVA, C, KOTLIN (each imported with its module), LANGUAGES (every_language())
    and BuildFault (with the compiling machinery)."""
    if name in _MODULES:
        return _language(name)
    if name == "LANGUAGES":
        return every_language()
    if name == "BuildFault":
        from .build import BuildFault

        return BuildFault
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _ByExtension(Mapping):
    """File extension -> Language; a language's module is imported when one of its extensions is
    looked up, not when an extension is only tested for (`in`)."""

    def __init__(self) -> None:
        self._names = {extension: name for _, name, extensions in REGISTRY for extension in extensions}

    def __getitem__(self, extension: str) -> Language:
        return _language(self._names[extension])

    def __contains__(self, extension: object) -> bool:
        return extension in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


EXTENSIONS: Mapping[str, Language] = _ByExtension()


def for_path(path: Path) -> Language:
    """The language of a solution file, from its extension (a folder's: most of its files')."""
    from ..problems.format import language_of  # (not at the top: the compile launcher runs without site-packages)

    language = language_of(Path(path), EXTENSIONS)
    if language is None:
        known = ", ".join(sorted(EXTENSIONS))
        what = "no one language has most of the folder's files" if Path(path).is_dir() else "unknown solution language"
        raise JudgeInputError(f"{what} (file extensions known: {known})", path)
    return language


@record(frozen=True)
class LanguageStatus:
    language: Language
    toolchain: Toolchain | None
    detail: str  # the compiler and the layers that apply, or why the language is unavailable


def statuses() -> list[LanguageStatus]:
    """Each language with its compiler version (for `doctor`); a missing compiler is a row, not an error."""
    rows = []
    for language in every_language():
        toolchain = language.toolchain()
        detail = f"{toolchain.version}; {language.layers}" if toolchain else language.missing_message()
        rows.append(LanguageStatus(language, toolchain, detail))
    return rows


def doctor_table() -> str:
    """Languages, their compilers and the layers that confine their tests, as `doctor` prints them."""
    from tabulate import tabulate  # not imported by the compile launcher, which runs without site-packages

    rows = [[status.language.title, "on" if status.toolchain else "OFF", status.detail] for status in statuses()]
    return tabulate(rows, ["language", "status", "compiler and layers, or what is missing"], tablefmt="simple",
                    maxcolwidths=[None, None, 90])
