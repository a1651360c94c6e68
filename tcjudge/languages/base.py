"""What every language provides, and the source scanning the compiled languages share."""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from .. import protocol
from .build import protect_project
from .versions import version_output

SCAN_LIMIT = 1 << 20  # characters of a source scanned for class names: far above any TopCoder solution


@dataclass(frozen=True)
class Toolchain:
    """A language's installed compiler or runtime, found on this machine."""

    version: str  # one line, as `doctor` shows it and as the build cache keys on it
    programs: dict[str, str]  # role -> absolute path of the executable


def gnu_compiler(program: str) -> Toolchain | None:
    """A GNU compiler driver (g++, gcc) on the system PATH, with the first line of its --version."""
    found = shutil.which(program, path="/usr/local/bin:/usr/bin:/bin")
    if not found:
        return None
    said = version_output([found, "--version"], timeout=30)
    if said is None:
        return None
    version = said[0]
    line = version.splitlines()[0] if version else f"{program} (unknown version)"
    return Toolchain(line, {program: str(Path(found).resolve())})


def safe_file_name(name: str, fallback: str) -> str:
    """The contestant's file name as the compiler's messages will show it, or `fallback` where it is not
    a plain one (a name is the solution's to choose: hostile until proven otherwise)."""
    return name if re.fullmatch(r"[\w.+-]{1,100}", name) and not name.startswith((".", "-")) else fallback


class CompileError(Exception):
    """The solution did not compile: CE, with the first compiler messages (sanitized, capped)."""


class ToolchainMissing(Exception):
    """The compiler a solution needs is not installed: said in one line, never as a traceback."""


class Language:
    """One solution language. Subclasses set the class attributes and override what differs."""

    name = ""  # the request's "language" and the cache's namespace
    title = ""  # what tables show
    extensions: tuple[str, ...] = ()
    layers = ""  # what confines its tests, for `doctor`
    install_hint = ""  # how to get the missing compiler

    def classes(self, source: str) -> set[str]:
        """The class names a source declares, found without running or compiling it."""
        raise NotImplementedError

    def toolchain(self) -> Toolchain | None:
        """The installed compiler (None when missing); cheap after the first call."""
        raise NotImplementedError

    def missing_message(self) -> str:
        return f"{self.title} is unavailable: {self.install_hint}"

    def to_compile(self, path: Path, problem, source_limit: int) -> tuple[Toolchain, bytes]:
        """The installed compiler and at most `source_limit` bytes of source (ToolchainMissing,
        CompileError), with the problem's project hidden from the compiler from here on."""
        toolchain = self.toolchain()
        if toolchain is None:
            raise ToolchainMissing(self.missing_message())
        source = read_source(path, source_limit)
        protect_project(problem.path)
        return toolchain, source

    def program(self, path: Path, problem, source_limit: int) -> dict | None:
        """What the zygote runs for this solution: None when it loads the source itself (Python),
        else the "program" field of its load request, after compiling at most `source_limit`
        bytes of source (raises CompileError or ToolchainMissing)."""
        return None


def read_source(path: Path, limit: int) -> bytes:
    """At most `limit` bytes of a regular file; CompileError for anything else (the zygote's rule)."""
    try:
        return protocol.read_source(path, limit)
    except protocol.SourceError as err:
        raise CompileError(str(err)) from None
    except OSError as err:
        raise CompileError(f"cannot read the file: {err.strerror}") from None


def code_only(source: str, line_comment: str = "//", block: tuple[str, str] = ("/*", "*/")) -> str:
    """The source with comments and string/character literals blanked, in linear time (a regex
    with a lazy `.*?` would be quadratic on a hostile file full of unterminated comments)."""
    source = source[:SCAN_LIMIT]
    out: list[str] = []
    i, n = 0, len(source)
    openers = re.compile(re.escape(line_comment) + "|" + re.escape(block[0]) + r"""|["']""")
    while i < n:
        match = openers.search(source, i)
        if match is None:
            out.append(source[i:])
            break
        out.append(source[i:match.start()])
        token = match.group()
        if token == line_comment:
            end = source.find("\n", match.end())
        elif token == block[0]:
            end = source.find(block[1], match.end())
            end = -1 if end < 0 else end + len(block[1])
        else:
            end = _literal_end(source, match.end(), token)
        if end < 0:
            break
        out.append(" ")
        i = end
    return "".join(out)


def _literal_end(source: str, i: int, quote: str) -> int:
    """The index just past a string or character literal that opened before `i` (-1: never closed)."""
    n = len(source)
    while i < n:
        c = source[i]
        if c == "\\":
            i += 2
        elif c == quote:
            return i + 1
        elif c == "\n":  # an unterminated literal ends at the line's end (the compiler will say so)
            return i
        else:
            i += 1
    return -1
