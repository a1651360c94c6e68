"""What every language provides, and the source scanning the compiled languages share."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from .. import protocol
from ..protected import protect_project
from ..record import record
from .versions import version_output

SCAN_LIMIT = 1 << 20  # characters of a source scanned for class names: far above any TopCoder solution
C_MAIN = re.compile(r"\bmain\s*\([^;{}]*\)\s*(?:->\s*int\s*)?\{")  # a C or C++ main's definition, in code_only text


@record(frozen=True)
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
    extensions: tuple[str, ...] = ()  # the file extensions that pick it (languages.REGISTRY repeats them)
    layers = ""  # what confines its tests, for `doctor`
    install_hint = ""  # how to get the missing compiler
    kattis_code = ""  # its code in the Kattis languages table: a package's include/<code>/ is given to it
    entry_marker: re.Pattern | None = None  # what marks a program's entry file in a folder of several
    light_build = False  # its build, if any, takes a moment: judge serve's light builder takes it (engine/feed.py)

    @property
    def source_extensions(self) -> tuple[str, ...]:
        """The extensions of its source files in a folder (a language picked by content, not by an
        extension of its own, has those of the language it is a dialect of)."""
        return self.extensions

    def dialect(self, path: Path) -> Language:
        """The language that runs this file or folder, found by scanning its text: this one, or one it
        picks by content (a `#!` line naming pypy3 makes a Python file PyPy 3's)."""
        return self

    def machine_version(self, own_format: bool | None = None) -> str | None:
        """What of this machine can change its verdicts (on a problem in our own format or a package's;
        None: either), the history's reuse key: its toolchain's version."""
        toolchain = self.toolchain()
        return toolchain.version if toolchain else None

    def classes(self, source: str) -> set[str]:
        """The class names a source declares, found without running or compiling it."""
        raise NotImplementedError

    def toolchain(self) -> Toolchain | None:
        """The installed compiler (None when missing); cheap after the first call."""
        raise NotImplementedError

    def missing_message(self) -> str:
        return f"{self.title} is unavailable: {self.install_hint}"

    def unsupported(self, path: Path) -> str | None:
        """Why this file (or folder) is in a dialect of the language the judge does not run (Python 2
        in a .py file), found by scanning its text, never by running it; None when it is not."""
        return None

    def to_compile(self, path: Path, problem, source_limit: int, fallback: str) -> tuple[Toolchain, dict[str, bytes]]:
        """The installed compiler and the solution's files (`sources`), with the problem's project
        hidden from the compiler from here on (ToolchainMissing, CompileError)."""
        toolchain = self.toolchain()
        if toolchain is None:
            raise ToolchainMissing(self.missing_message())
        files = self.sources(path, problem, source_limit, fallback)
        protect_project(problem.path)
        return toolchain, files

    def sources(self, path: Path, problem, source_limit: int, fallback: str) -> dict[str, bytes]:
        """The solution's files (relative path -> bytes): a folder's by protocol.read_tree's rules, a
        file alone under its own name (`fallback` where that name is not a plain one); then, for a
        package, its included files for this language over them (CompileError for what cannot be read)."""
        path = Path(path)
        if path.is_dir():
            files = read_folder(path, source_limit)
        else:
            files = {safe_file_name(path.name, fallback): read_source(path, source_limit)}
        included = self.included(problem)
        if included is not None:  # the format: after the code limit is checked, replacing same-named files
            files |= read_folder(included, source_limit)
        constants = getattr(problem, "constants", None)
        if constants:  # a 2025-09 package's {{name}} sequences, replaced before the files are compiled
            files = {name: protocol.substitute_constants(data, constants) for name, data in files.items()}
        return files

    def included(self, problem) -> Path | None:
        """A package's folder of files given to every submission in this language: include/<code>/, else
        include/default/ (2025-09); None for our own problems and where there is none."""
        if problem.kind.own_format or not self.kattis_code:
            return None
        for name in (self.kattis_code, "default"):
            folder = Path(problem.path) / "include" / name
            if folder.is_dir():
                return folder
        return None

    def included_entry(self, problem) -> str | None:
        """The name of the package's included file that is the program's entry point, or None: where
        include/ brings one, that program runs and the submission is the part it calls (problemtools: an
        included `main.*` source is the main file, whatever the submission's files are)."""
        folder = self.included(problem)
        if folder is None:
            return None
        names = sorted(entry.name for entry in folder.iterdir() if entry.is_file() and self.defines_entry(entry))
        return names[0] if names else None

    def defines_entry(self, file: Path) -> bool:
        """Whether an included file is an entry point: a source of this language named `main` (any case),
        as problemtools' mainfile rule reads one (a language with a binary entry tells it by its text)."""
        return file.stem.lower() == "main" and file.suffix.lower() in self.source_extensions

    def entry_file(self, files: dict[str, bytes]) -> str:
        """The file a folder's program starts from, as the Kattis format and problemtools choose it: `main`
        with the language's extension (any case); else the one file that `entry_marker` marks (a main
        method, `if __name__ == "__main__"`); else the first source file by name. Only the folder's top
        is searched (where `python3 main.py` and `java Main` start). CompileError if none."""
        extensions = self.source_extensions
        names = sorted(name for name in files if Path(name).suffix.lower() in extensions and "/" not in name)
        if not names:
            raise CompileError(f"the folder holds no {self.title} file ({', '.join(extensions)}) at its top")
        mains = [name for name in names if Path(name).stem.lower() == "main"]
        if mains:
            return mains[0]
        marked = [name for name in names if self.entry_marker
                  and self.entry_marker.search(files[name][:SCAN_LIMIT].decode("utf-8", "replace"))]
        return marked[0] if len(marked) == 1 else names[0]

    def only_programs(self, problem) -> None:
        """CompileError on a method problem, for a language whose files can only be standard-input programs."""
        if not problem.kind.program:
            raise CompileError(f"{problem.slug} asks for a class {problem.class_name}; a {self.title} file can only "
                               "be a standard-input program")

    def load_fields(self, path: Path, problem, source_limit: int) -> dict:
        """What the zygote's load request says beyond the solution's path, for a language the zygote
        loads itself (Python: a multi-file program's entry file), and whether its tests may be a process
        tree (tree_fields); CompileError when it cannot be."""
        return self.tree_fields(problem)

    def tree_fields(self, problem) -> dict:
        """{"processes": True} where the package's include/ brings the program's entry point: such a runner
        may fork the submission's code into a child it talks to, as Kattis runs it, and its test is then a
        bounded process tree (docs/security.md, "Process trees"); else nothing (one process)."""
        return {"processes": True} if self.included_entry(problem) is not None else {}

    def program(self, path: Path, problem, source_limit: int) -> dict | None:
        """What the zygote runs for this solution: None when it loads the source itself (Python),
        else the "program" field of its load request, after compiling at most `source_limit`
        bytes of source (raises CompileError or ToolchainMissing)."""
        return None


def defines_c_main(file: Path) -> bool:
    """Whether a C or C++ file (a package's included one: trusted, read up to SCAN_LIMIT) defines main."""
    with open(file, "rb") as handle:
        return C_MAIN.search(code_only(handle.read(SCAN_LIMIT).decode("utf-8", "replace"))) is not None


def flatten(files: dict[str, bytes]) -> list:
    """A build's files as parts of its cache key: every name and its bytes, in name order."""
    return [part for name in sorted(files) for part in (name, files[name])]


def write_files(folder: Path, files: dict[str, bytes]) -> None:
    """A solution's files into its build folder (names checked by protocol.read_tree or safe_file_name)."""
    for name, data in files.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def read_folder(path: Path, limit: int) -> dict[str, bytes]:
    """A multi-file solution's files (protocol.read_tree); CompileError for what it refuses."""
    return _read(protocol.read_tree, path, limit, "folder")


def read_source(path: Path, limit: int) -> bytes:
    """At most `limit` bytes of a regular file; CompileError for anything else (the zygote's rule)."""
    return _read(protocol.read_source, path, limit, "file")


def _read(reader, path: Path, limit: int, what: str):
    try:
        return reader(path, limit)
    except protocol.SourceError as err:
        raise CompileError(str(err)) from None
    except OSError as err:
        raise CompileError(f"cannot read the {what}: {err.strerror}") from None


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
