"""The confined side: what a forked test child runs, from the fork to its end.

Every line here runs in the child, never in the zygote: it cuts its ties to the zygote, joins its
cgroup, sets its limits, enters the kernel layers, and then either execs a compiled program or
loads and runs a Python solution (a method called on a fresh instance, or a stdin program run as
`python3 program.py` would run it). From the moment the solution's code runs, nothing this process
says is trusted: the zygote reads the kernel's figures and the result channel from outside
(engine/zygote.py, engine/watch.py), and the judge parses what it said (engine/judging.py).

Imports nothing of the judge but tcjudge.protocol and engine/processes.py (standard library only).
"""

from __future__ import annotations

import _signal
import atexit
import builtins
import ctypes
import faulthandler
import json
import marshal
import os
import resource
import select
import sys
import types
import warnings
from collections.abc import Callable

from ..protocol import ARGS_FD, CRASH_FD, RESULT_FD, UNSUPPORTED
from .processes import die_with_parent, execve, sched_getcpu
from .solution import LENGTH


OWN_CPU = -2  # for start(): pin the child to the CPU it runs on when it pins itself


def builtins_as_python_starts() -> None:
    """Give the interpreter the builtins `python3 program.py` has and a `-S` interpreter lacks:
    exit() and quit() (programs often end with them), help, copyright, credits and license. Run once
    in the zygote, before any fork; site's functions only add builtins (site-packages stay out)."""
    import site

    site.setquit()
    site.setcopyright()
    site.sethelper()


class Channels:
    """What the child's descriptors become, as the zygote chose them for its mode: a method reads
    its arguments on ARGS_FD and has no input; a stdin program reads its input on 0 and writes its
    answer on 1; an interactive program is connected to the interactor on 0 and 1 and waits for
    ARGS_FD to close before it starts. Every mode has the crash channel (CRASH_FD).

    `output` is standard error (and a method's standard output), captured; `setup` carries the
    judge's own set-up errors, closed before any solution code runs; `crash` what a crashing process
    says of its crash (tcjudge.protocol); `code` where the compiled code goes for the children after
    this one (-1: nowhere)."""

    __slots__ = ("stdin", "stdout", "output", "result", "args", "setup", "crash", "code")

    def __init__(self, stdin: int, stdout: int, output: int, result: int, args: int, setup: int, crash: int,
                 code: int = -1):
        self.stdin, self.stdout, self.output, self.result, self.args = stdin, stdout, output, result, args
        self.setup, self.crash, self.code = setup, crash, code


def start(solution, channels: Channels, parent: int, join_cgroup: Callable[[], None] | None,
          data_baseline: int, nproc: int | None, cpu: int) -> None:  # (never returns: typing stays out of the zygote)
    """In the forked child: cut every tie to the zygote (`parent`), confine, then run `solution`
    (an engine/solution.Solution) on `cpu` alone and end.

    Every descriptor but 0-5 is closed before the solution runs, the set-up channel included."""
    setup_w = channels.setup
    try:
        die_with_parent(parent)
        if join_cgroup is not None:
            join_cgroup()  # first: everything from here on is charged to the test
        os.setpgid(0, 0)
        os.dup2(channels.crash, CRASH_FD)  # first: the zygote holds CRASH_FD, so it is no other channel
        os.set_blocking(CRASH_FD, False)  # a crash's evidence is dropped rather than waited for
        os.dup2(channels.stdin, 0)
        os.dup2(channels.stdout, 1)
        os.dup2(channels.output, 2)
        os.dup2(channels.result, RESULT_FD)
        os.dup2(channels.args, ARGS_FD)
        # (the C function under signal.signal, whose enum wrapping copies pages in a fresh child)
        _signal.signal(_signal.SIGINT, _signal.SIG_DFL)
        _limit(solution, data_baseline, nproc)
        if cpu == OWN_CPU:
            cpu = sched_getcpu()
        if cpu >= 0:  # one CPU: threads add CPU time, not cores (an interactor joins it there)
            os.sched_setaffinity(0, {cpu})
        program, token = solution.program, None
        if solution.confinement is not None:  # it may use descriptors of its own, closed just below
            token = solution.confinement.enter(os.fsencode(program.argv[0]) if program is not None else None)
        if program is not None:  # exec closes the set-up channel (close-on-exec) on success
            os.closerange(CRASH_FD + 1, setup_w)
            os.closerange(setup_w + 1, 1 << 16)
            _exec_program(program, token, solution.stdin_mode)
        code_w = channels.code  # closed by _compile, before any code of the solution runs
        os.closerange(CRASH_FD + 1, code_w if code_w > CRASH_FD else 1 << 16)
        if code_w > CRASH_FD:
            os.closerange(code_w + 1, 1 << 16)
    except BaseException as err:  # the harness's own set-up failed: say so, as an internal error
        os.write(setup_w, f"{type(err).__name__}: {err}".encode()[:4096])
        os._exit(70)
    (_run_program if solution.stdin_mode else _run_solution)(solution, code_w)
    # Stay alive, stopped, until the zygote has read this process's CPU time and peak memory
    # and killed it (an exiting process loses its memory figures before it can be reaped).
    os.kill(os.getpid(), _signal.SIGSTOP)
    os._exit(0)


def _limit(solution, data_baseline: int, nproc: int | None) -> None:
    cpu = solution.cpu_backstop()  # a backstop only: the zygote stops it at the limit
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    data = solution.data_limit(data_baseline)
    resource.setrlimit(resource.RLIMIT_DATA, (data, data))
    resource.setrlimit(resource.RLIMIT_AS, (solution.address_space, solution.address_space))
    _, stack_hard = resource.getrlimit(resource.RLIMIT_STACK)
    stack = solution.stack_limit() if stack_hard == resource.RLIM_INFINITY else min(solution.stack_limit(), stack_hard)
    resource.setrlimit(resource.RLIMIT_STACK, (stack, stack_hard))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    if nproc is not None:
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))


def _exec_program(program, token: int | None, stdin_mode: bool) -> None:  # (never returns)
    """Arrange the descriptors and become the compiled program (an engine/solution.Program); a
    `stdin_mode` program (its input on 0) is given no argument channel.

    `token`: the address of the program's path that the confinement's filter lets execve take
    (sandbox.exec_token), the only exec the program will ever have; None where no filter decides."""
    for fd in (RESULT_FD, ARGS_FD):  # a dup2 onto itself kept close-on-exec
        os.set_inheritable(fd, True)
    if program.crash_channel:  # our runtime says where a SIGSEGV struck (runtime/tcjudge.hpp)
        os.set_inheritable(CRASH_FD, True)
    else:  # it would be the program's alone to write: no evidence, no hint
        os.close(CRASH_FD)
    if not program.result_channel:  # nothing for it to say beyond its output and exit status
        os.close(RESULT_FD)
        os.close(ARGS_FD)
    elif program.stdio:
        os.dup2(ARGS_FD, 0)
        os.dup2(RESULT_FD, 1)
        os.close(ARGS_FD)
        os.close(RESULT_FD)
    elif stdin_mode:  # (the JVM's entry says "ready" on the result channel; /dev/null, or an unread gate, on 4)
        os.close(ARGS_FD)
    if token is None:
        os.execve(program.argv[0], program.argv, program.env)
    argv = _c_strings(program.argv)
    env = _c_strings(f"{name}={value}" for name, value in program.env.items())
    execve(ctypes.c_void_p(token), argv, env)
    error = ctypes.get_errno()
    raise OSError(error, f"execve {program.argv[0]}: {os.strerror(error)}")


def _c_strings(items) -> ctypes.Array:
    """A NULL-terminated char *[] for execve."""
    encoded = [os.fsencode(item) for item in items]
    return (ctypes.c_char_p * (len(encoded) + 1))(*encoded, None)


def _report_crashes() -> None:
    """On a fatal signal, CPython's faulthandler writes the crashing thread's traceback on the crash
    channel (from a C handler, on a stack of its own), then the process dies by that signal as it
    would have: a traceback cut at faulthandler's 100 frames is the judge's evidence of deep recursion."""
    faulthandler.enable(file=CRASH_FD, all_threads=False)


def _run_solution(solution, code_w: int) -> None:
    """Load the module fresh, find the class and method, wait for the arguments, call, report."""
    _report_crashes()
    code = _compile(solution, code_w)
    if code is None:
        return
    phase = "load"
    _hide_judge_frames(keep=1)
    try:
        module = _solution_module(solution)
        _module_code(code, module)()  # called from here: see _module_code
        cls = module.__dict__.get(solution.class_name)
        if not isinstance(cls, type):
            _report({"kind": "missing", "message": f"the file defines no class {solution.class_name}"})
            return
        if not callable(getattr(cls, solution.method, None)):
            _report({"kind": "missing", "message": f"class {solution.class_name} has no method {solution.method}"})
            return
        args = _read_arguments()
        if args is None:
            _report({"kind": "loaded"})
            return
        phase = "call"
        function, args = _direct_call(getattr(cls(), solution.method), args)
        value = function(*args)  # called from here: a frame between would count against its depth
        phase = "result"
        _flush_output()
        _report({"kind": "return", "value": _plain(value, 0)})
    except BaseException as err:  # anything the solution raises, SystemExit included, is its verdict
        _flush_output()
        _print_traceback(err, solution)
        _report(_describe_error(err, phase, solution.path))


def _solution_module(solution) -> types.ModuleType:
    """An importable module named "solution", as the arena imports the class: registered in
    sys.modules so dataclasses, pickle and copy resolve the solution's classes (under
    `python3 solution.py` they do); not "__main__", so a local test block does not run."""
    module = types.ModuleType("solution")
    module.__file__ = solution.path
    sys.modules["solution"] = module
    sys.argv[:] = [solution.path]
    return module


class FolderImports:
    """`import helper` from a multi-file program's own files (and a package's included ones), held in
    memory by the zygote: nothing is read from the disk. Searched first, as `python3 main.py`
    searches the script's folder first (a file named like a standard module shadows it there too)."""

    def __init__(self, files: dict[str, bytes], folder: str):
        import importlib.util  # here, in the child, before this finder is asked for it (the zygote stays small)

        self.files, self.folder, self.util = files, folder, importlib.util

    def find_spec(self, name: str, path=None, target=None):
        relative = name.replace(".", "/")
        for candidate, package in ((f"{relative}/__init__.py", True), (f"{relative}.py", False)):
            if candidate in self.files:
                where = [os.path.join(self.folder, relative)] if package else None
                return self.util.spec_from_file_location(name, os.path.join(self.folder, candidate), loader=self,
                                                              submodule_search_locations=where)
        return None

    def create_module(self, spec):
        return None  # the default module

    def exec_module(self, module) -> None:
        origin = module.__spec__.origin
        source = self.files[os.path.relpath(origin, self.folder)]
        exec(compile(source, origin, "exec", dont_inherit=True), module.__dict__)


def _compile(solution, code_w: int) -> types.CodeType | None:
    """The solution's code: loaded from what an earlier child compiled (engine/solution.CompiledCode),
    else compiled here, in the confined and limited child, and handed on through `code_w` (a
    descriptor, or -1), which is closed on return. None: the failure is reported. A multi-file
    program's other files become importable (FolderImports)."""
    if solution.modules:
        sys.meta_path.insert(0, FolderImports(solution.modules, os.path.dirname(solution.path)))
    try:
        if solution.code is not None and solution.code.marshaled is not None:
            return marshal.loads(solution.code.marshaled)
        with warnings.catch_warnings(record=True) as warned:
            code = compile(solution.source, solution.path, "exec", dont_inherit=True)
        for warning in warned:  # shown as compile shows them: every test's output has them
            warnings.showwarning(warning.message, warning.category, warning.filename, warning.lineno)
        if code_w >= 0 and not warned:
            _hand_on(code, code_w)
        return code
    except SyntaxError as err:  # SyntaxWarnings went to the captured output, like any print
        where = f" (line {err.lineno})" if err.lineno else ""
        _report({"kind": "compile_error", "message": f"{type(err).__name__}: {err.msg}{where}"[:1000]})
    except (MemoryError, RecursionError, ValueError) as err:  # the compiler refused the source: nothing ran
        # (a parser stack overflow, 3.11 says only "MemoryError"; a nesting too deep; null bytes on 3.11):
        # CE, as Kattis and DMOJ compile Python first (py_compile) and call its failure a compile error
        said = str(err)[:300] or "the source is too complex (or too large) to compile"
        _report({"kind": "compile_error", "message": f"{type(err).__name__}: {said}"})
    except BaseException as err:  # too deep, too big, a decoder that fails: the solution's own fault
        _flush_output()
        _report(_describe_error(err, "compile", solution.path))
    finally:
        if code_w >= 0:
            os.close(code_w)
    return None


def _hand_on(code: types.CodeType, code_w: int) -> None:
    """Write the compiled code for the children after this one, whole or not at all, never waiting."""
    try:
        data = marshal.dumps(code)
        os.write(code_w, LENGTH.pack(len(data)) + data)  # in a full pipe, the zygote sees a short write
    except (ValueError, OSError):  # too deep or too large to marshal, a full pipe: each child compiles
        pass


def _run_program(solution, code_w: int) -> None:
    """Run a stdin program as `python3 program.py` would, once its input starts to arrive (an
    interactive one: once its interactor has started).

    It ends as the interpreter ends a script: other threads are waited for, atexit functions run,
    standard output is flushed. Then {"kind": "exit"} is reported; an exception, a non-zero
    `sys.exit` or a failure to write the output is reported as an error, as for a method.
    """
    _report_crashes()
    code = _compile(solution, code_w)  # (no solution code runs before the input arrives; compiling runs none)
    if code is None:
        return
    if solution.compile_only:
        _report({"kind": "loaded"})
        return
    if solution.interactive:  # the interactor is started: the zygote closes the gate
        os.read(ARGS_FD, 1)
    else:
        select.select([0], [], [])  # input (or its end) is there: the test has started
    os.close(ARGS_FD)  # the gate, or /dev/null: nothing of the program's
    _hide_judge_frames(keep=0)
    module = types.ModuleType("__main__")
    module.__file__ = solution.path
    sys.modules["__main__"] = module
    sys.argv[:] = [solution.path]
    first = os.getpid()  # a tree's other processes (a runner's fork) end by their exit status alone
    failure = None
    try:
        _module_code(code, module)()  # called from here: see _module_code
    except SystemExit as err:
        failure = None if err.code in (None, 0) else err
    except BaseException as err:  # anything else the program raises is its verdict
        failure = err
    try:
        threading = sys.modules.get("threading")
        if threading is not None:
            threading._shutdown()  # the interpreter waits for non-daemon threads before exiting
        atexit._run_exitfuncs()
        _flush_output(strict=True)
    except BaseException as err:
        failure = failure or err
    if os.getpid() != first:
        _exit_forked(failure, solution)
    if failure is not None:
        _flush_output()
        _print_traceback(failure, solution)
        _report(_describe_error(failure, "call", solution.path))
    else:
        _report({"kind": "exit"})


def _exit_forked(failure: BaseException | None, solution) -> None:  # (never returns)
    """A process the program forked (a package's runner forks the submission's code) that reaches the
    script's end exits as `python3`'s would: 0, SystemExit's status, or 1 after the traceback. It says
    nothing on the result channel, whose line speaks for the test: only the first process's end is it."""
    status = 0
    if failure is not None:
        _flush_output()
        _print_traceback(failure, solution)
        code = failure.code if isinstance(failure, SystemExit) else 1
        status = code & 0xFF if isinstance(code, int) else 1
    os._exit(status)


def _module_code(code: types.CodeType, module: types.ModuleType) -> types.FunctionType:
    """The solution's module code as a function that runs it as `exec(code, module.__dict__)`
    would: its globals are its locals (module code is not "optimized"), its builtins exec's.

    From 3.12 the interpreter counts calls through C apart from Python frames, against a fixed
    budget (Py_C_RECURSION_LIMIT: recursion through C, lru_cache's among them, raises RecursionError
    there whatever the recursion limit). exec enters the interpreter from C and spends 3 of it,
    where `python3 solution.py` runs its module code with none spent; called from Python code,
    this function runs in the caller's interpreter loop and spends none."""
    namespace = module.__dict__
    namespace.setdefault("__builtins__", vars(builtins))  # what exec adds to a namespace without them
    return types.FunctionType(code, namespace)


def _direct_call(method, args: tuple) -> tuple[Callable, tuple]:
    """What to call, with what, for `method(*args)` as a method called from module code is called:
    a bound method called with *args goes through C (2 of the C recursion budget from 3.12), its
    function called with the instance first does not (see _module_code)."""
    if type(method) is types.MethodType and type(method.__func__) is types.FunctionType:
        return method.__func__, (method.__self__, *args)
    return method, args


def _hide_judge_frames(keep: int) -> None:
    """Give the solution the recursion depth `python3 solution.py` gives it, on every test.

    The child was forked somewhere down the zygote's stack (the first test's child and the spares
    are forked from different places), and those frames count against the recursion limit.
    Raising the limit by their number, and showing the solution the limit without them, makes
    the code the caller runs next count as at depth `keep` + 1: a method as if module code
    called it (keep 1: the caller stands for the module frame), a program as a module (keep 0).
    The same depth on every test, whatever `sys.setrecursionlimit` the solution sets.
    """
    hidden, frame = -keep, sys._getframe(1)
    while frame is not None:
        hidden += 1
        frame = frame.f_back
    set_limit, get_limit = sys.setrecursionlimit, sys.getrecursionlimit

    def setrecursionlimit(limit, /):
        set_limit(limit + hidden if type(limit) is int and limit >= 1 else limit)

    def getrecursionlimit():
        return get_limit() - hidden

    setrecursionlimit.__doc__, getrecursionlimit.__doc__ = set_limit.__doc__, get_limit.__doc__
    set_limit(get_limit() + hidden)
    sys.setrecursionlimit, sys.getrecursionlimit = setrecursionlimit, getrecursionlimit


def _read_arguments() -> tuple | None:
    """One test's arguments from the argument pipe (JSON, closed by the zygote when complete)."""
    chunks = []
    while chunk := os.read(ARGS_FD, 1 << 16):
        chunks.append(chunk)
    os.close(ARGS_FD)
    args = json.loads(b"".join(chunks))
    return None if args is None else _as_tuples(args)


def _as_tuples(value):
    """Arguments as TopCoder hands them to Python: every array (JSON list) becomes a tuple."""
    return tuple(_as_tuples(item) for item in value) if isinstance(value, list) else value


def _plain(value, depth: int):
    """The returned value as JSON-ready data; objects that are not TopCoder values are only named."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int.__index__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, (list, tuple)) and depth < 2:
        return [_plain(item, depth + 1) for item in value]
    kind = type(value)
    module = kind.__dict__.get("__module__")  # the solution may have set it to anything
    module = str.__str__(module)[:200] if isinstance(module, str) else "?"
    return {UNSUPPORTED: f"{module}.{str.__str__(kind.__qualname__)[:200]}".removeprefix("builtins.")}


def _print_traceback(err: BaseException, solution) -> None:
    """Write on standard error (descriptor 2, the captured output) the traceback `python3 program.py`
    prints for an exception it does not catch, the judge's own frames left out, so that `grade
    --show-output` shows what the program said. A SystemExit prints only a text it carries."""
    try:
        import linecache  # (here, in the child that failed: the zygote stays small)
        import traceback

        if isinstance(err, SystemExit):
            text = f"{err.code}\n" if isinstance(err.code, str) else ""
        else:
            folder = os.path.dirname(solution.path)  # its lines as the interpreter shows them (the disk is out of reach)
            for path, source in [(solution.path, solution.source)] + [(os.path.join(folder, name), data)
                                                                      for name, data in solution.modules.items()]:
                linecache.cache[path] = (len(source), None, source.decode("utf-8", "replace").splitlines(True), path)
            shown = traceback.TracebackException(type(err), err, err.__traceback__, limit=-50)
            shown.stack = traceback.StackSummary.from_list([frame for frame in shown.stack if frame.filename != __file__])
            text = "".join(shown.format())
        data = text.encode("utf-8", "replace")
        while data:
            data = data[os.write(2, data):]
    except BaseException:  # out of memory, a closed descriptor: the verdict does not depend on it
        pass


def _describe_error(err: BaseException, phase: str, path: str) -> dict:
    line = None
    tb = err.__traceback__
    while tb is not None:  # (traceback.walk_tb, without importing traceback into the zygote)
        if tb.tb_frame.f_code.co_filename == path:
            line = tb.tb_lineno
        tb = tb.tb_next
    if isinstance(err, SyntaxError) and err.filename == path:
        line = err.lineno
    try:
        message = str(err)[:300]
    except BaseException:
        message = "(the exception could not be shown)"
    errno = getattr(err, "errno", None)
    return {"kind": "error", "phase": phase, "type": type(err).__name__, "message": message, "line": line,
            "errno": errno if type(errno) is int else None}


def _report(message: dict) -> None:
    """One line on the result channel (JSON never contains a raw newline): its end ends the test."""
    data = json.dumps(message, allow_nan=True).encode() + b"\n"
    view = memoryview(data)
    while view:
        written = os.write(RESULT_FD, view)
        view = view[written:]


def _flush_output(strict: bool = False) -> None:
    """Flush what the solution printed; `strict`: a failure to write standard output is its error
    (a stdin program whose answer cannot be written has not answered)."""
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            if not stream.closed:  # as at the interpreter's exit: a stream the program closed is skipped
                stream.flush()
        except BaseException:
            if strict and (stream is sys.stdout or stream is sys.__stdout__):
                raise
