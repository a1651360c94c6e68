"""The command line: `judge COMMAND`, one module per command in tcjudge.commands.

Exit status: 0 when everything is as it should be (AC, or every stored solution at its expected
verdict), 1 when it is not, 2 for a usage or input error (reported in one line naming the file and
line, never with a traceback), 130 when interrupted (143 when ended by SIGTERM), 141 when the reader of the output closed the
pipe. `check` and `report` both exit 1 when any stored solution is not at its expected verdict
(an IE anywhere is never expected).
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import os
import signal
import sys
import threading
from pathlib import Path

from . import __version__, commands, project
from .commands.common import EXIT_CLOSED_PIPE, EXIT_INPUT_ERROR, EXIT_INTERRUPTED, positive
from .errors import JudgeInputError
from .protocol import SOURCE_LIMIT
from .text import whole_line


def main(argv: list[str] | None = None, spares=None) -> int:
    """Run the command `argv` names; `spares`: zygotes started ahead for it (launch.py), ended here
    whatever the command."""
    try:
        return _main(argv, spares)
    finally:
        if spares is not None:
            spares.close()


def _main(argv: list[str] | None, spares) -> int:
    for stream in (sys.stdout, sys.stderr):  # a terminal that cannot show a character gets an escape, not a crash
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    # the usage and the hints name the program as it was called: "judge" when installed, else judge.py
    parser = _parser(sys.argv[1:] if argv is None else argv, Path(sys.argv[0]).name if argv is None else "judge.py")
    options = parser.parse_args(argv)
    project.complete(options)
    options.argv = sys.argv[1:] if argv is None else list(argv)
    options.prog = parser.prog
    options.spares = spares
    guard = _ReaderGuard(sys.stdout) if _writes_files(options) else None
    try:
        if guard:
            sys.stdout = guard
        project.name_problems(options)
        code = options.command(options)
        return EXIT_CLOSED_PIPE if guard and guard.gone else code
    except JudgeInputError as err:
        # one line: a hostile file name never reaches the terminal raw
        print(f"judge: error: {whole_line(str(err))}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    except KeyboardInterrupt as stop:
        print("\njudge: interrupted", file=sys.stderr)
        return EXIT_TERMINATED if isinstance(stop, Terminated) else EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader went away (`judge.py grade ... | head -1`): stop quietly
        _silence_stdout()
        return EXIT_CLOSED_PIPE
    finally:
        if guard:
            sys.stdout = guard.stream
        if getattr(options, "cluster_pool", None):
            options.cluster_pool.close()


EXIT_TERMINATED = 128 + signal.SIGTERM


class Terminated(KeyboardInterrupt):
    """SIGTERM (what `timeout`, CI and systemd send): the run stops as at Ctrl-C, recorded as
    interrupted, and the judge exits 143."""


def _terminated(signum, frame) -> None:
    raise Terminated


def run(spares=None) -> None:
    """The command line (launch.run, the entry of judge.py and the installed `judge`): main(), then an
    exit that skips the interpreter's teardown of every module and object (60 ms of a 400 ms `grade
    --examples`), once what atexit holds has run and the streams are flushed. The usual exit while a
    thread that is not a daemon still runs (it would be waited for)."""
    signal.signal(signal.SIGTERM, _terminated)
    code = main(spares=spares)
    if any(not thread.daemon for thread in threading.enumerate() if thread is not threading.main_thread()):
        sys.exit(code)
    atexit._run_exitfuncs()  # temporary folders' finalizers, a Dask client's close
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:  # what was still buffered for a reader that has gone
            _silence_stdout()
            code = code or EXIT_CLOSED_PIPE
        except (OSError, ValueError):
            pass
    os._exit(code)


def _writes_files(options) -> bool:
    """report writes its pages; any command with --json or --junit its file."""
    return hasattr(options, "out") or bool(getattr(options, "json", None) or getattr(options, "junit", None))


class _ReaderGuard:
    """stdout for a command that writes files: when the reader goes away (`judge report | head -3`),
    the rest of the output is dropped, the files are still written, and the command ends with 141."""

    def __init__(self, stream):
        self.stream, self.gone = stream, False

    def write(self, text: str) -> int:
        self._guarded(self.stream.write, text)
        return len(text)

    def flush(self) -> None:
        self._guarded(self.stream.flush)

    def _guarded(self, operation, *args) -> None:
        if not self.gone:
            try:
                operation(*args)
            except BrokenPipeError:
                self.gone = True
                _silence_stdout()

    def __getattr__(self, name):
        return getattr(self.stream, name)


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush of what is still buffered for a
    closed pipe does not fail again on the way out."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout is not a real file (captured by a test): nothing to flush
        pass


def _parser(argv: list[str] | None = None, prog: str = "judge.py") -> argparse.ArgumentParser:
    """The main parser, with one sub-command per module of tcjudge.commands (adding a command is
    adding a file there: HELP, add_arguments(parser), run(options) -> exit status). Only the module
    of the command named in `argv` is imported (each pulls in what it needs: the engine, the pages,
    the cluster); all of them without `argv`, or when it names none, or asks for the main help."""
    parser = argparse.ArgumentParser(prog=prog, description="Grade TopCoder-style solutions (Python, C++, Java), "
                                     "standard-input programs (also C, Kotlin) and Kattis/ICPC packages.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    _global_options(parser, defaults=True)
    subparsers = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")
    everywhere = argparse.ArgumentParser(add_help=False)  # the global options, also after the command's name
    _global_options(everywhere, defaults=False)
    for name, module in _commands(None if argv is None else _named_command(argv)):
        command = subparsers.add_parser(name, help=module.HELP, parents=[everywhere])
        module.add_arguments(command)
        command.set_defaults(command=module.run)
    return parser


def _commands(named: str | None):
    """(name, module) of the command `named`, or of every command in the order `--help` lists them."""
    if named is not None:
        return [(named, importlib.import_module(f"{commands.__name__}.{named}"))]
    modules = [(name, importlib.import_module(f"{commands.__name__}.{name}")) for name in _command_names()]
    return sorted(modules, key=lambda item: (getattr(item[1], "ORDER", 100), item[0]))


def _command_names() -> set[str]:
    folder = os.path.dirname(commands.__file__)
    return {entry.name[:-3] for entry in os.scandir(folder)
            if entry.name.endswith(".py") and entry.name not in ("__init__.py", "common.py")}


class _NotACommandLine(Exception):
    pass


class _PreParser(argparse.ArgumentParser):
    def error(self, message):
        raise _NotACommandLine(message)


def _named_command(argv: list[str]) -> str | None:
    """The command that `argv` names, read with the global options alone; None when it names no
    known command, cannot be read, or asks for the main help before the command (the full parser
    then says what is wrong, or lists every command, exactly as it always did)."""
    reader = _PreParser(add_help=False)
    _global_options(reader, defaults=True)
    reader.add_argument("command", nargs="?")
    reader.add_argument("rest", nargs=argparse.REMAINDER)
    try:
        known, _ = reader.parse_known_args(argv)
    except _NotACommandLine:
        return None
    if known.command not in _command_names():
        return None
    before = argv[:len(argv) - len(known.rest) - 1]
    if any(word.startswith("-h") or (word.startswith("--he") and "--help".startswith(word.split("=")[0]))
           for word in before):
        return None
    return known.command


def _global_options(parser: argparse.ArgumentParser, defaults: bool) -> None:
    """Options every command accepts, before or after its name. Only the main parser holds defaults
    (a command's copy is SUPPRESSed, so it sets the value only when given)."""

    def default(value):
        return value if defaults else argparse.SUPPRESS

    parser.add_argument("--problems", type=Path, default=default(None), metavar="DIR",
                        help="the problems folder (default: ./problems)")
    parser.add_argument("--solutions", type=Path, default=default(None), metavar="DIR",
                        help="the stored solutions folder (default: solutions/ beside the problems folder)")
    parser.add_argument("--history", type=Path, default=default(None),
                        metavar="FILE", help="the run history: every run is recorded there, and check and report "
                                             "reuse unchanged results from it (default: reports/history.sqlite "
                                             "beside the problems folder)")
    parser.add_argument("--source-limit", type=positive, default=default(SOURCE_LIMIT // 1024), metavar="KIB",
                        help=f"largest solution source accepted, in KiB; larger is CE (default: {SOURCE_LIMIT // 1024})")


