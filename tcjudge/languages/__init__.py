"""The languages a solution may be written in, one module each (as DMOJ's executors/).

A language says, from the file alone and without running or compiling it, which classes a file
declares; and it turns a solution into what the zygote runs: Python is compiled by the zygote
itself, C++ and Java are compiled here (confined, limited, cached: see build.py) into a program
that the zygote's forked child execs after entering the sandbox. docs/languages.md has the why.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import JudgeInputError
from .base import CompileError, Language, Toolchain, ToolchainMissing
from ..protected import project_folders
from .build import BuildFault
from .c import C
from .cpp import CPP
from .java import JAVA
from .kotlin import KOTLIN
from .python import PYTHON

__all__ = ["BuildFault", "C", "project_folders", "CompileError", "EXTENSIONS", "LANGUAGES", "Language", "Toolchain", "ToolchainMissing", "for_path",
           "statuses"]

LANGUAGES: tuple[Language, ...] = (PYTHON, CPP, JAVA, C, KOTLIN)
EXTENSIONS = {extension: language for language in LANGUAGES for extension in language.extensions}


def for_path(path: Path) -> Language:
    """The language of a solution file, from its extension (a folder's: most of its files')."""
    from ..problems.format import language_of  # (not at the top: the compile launcher runs without site-packages)

    language = language_of(Path(path), EXTENSIONS)
    if language is None:
        known = ", ".join(sorted(EXTENSIONS))
        what = "no one language has most of the folder's files" if Path(path).is_dir() else "unknown solution language"
        raise JudgeInputError(f"{what} (file extensions known: {known})", path)
    return language


@dataclass(frozen=True)
class LanguageStatus:
    language: Language
    toolchain: Toolchain | None
    detail: str  # the compiler and the layers that apply, or why the language is unavailable


def statuses() -> list[LanguageStatus]:
    """Each language with its compiler version (for `doctor`); a missing compiler is a row, not an error."""
    rows = []
    for language in LANGUAGES:
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
