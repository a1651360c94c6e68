"""What the zygote holds of the loaded solution: its source, the limits its tests run under, and
the program a compiled language execs (zygote side: read from the load request, never from the child).

Imports nothing of the judge but tcjudge.protocol.
"""

from __future__ import annotations

import math
import os
import struct

from ..protocol import ANSWER_CAP, ARGS_FD, Limits, read_source, read_tree, substitute_constants

CODE_TRIES = 3  # children asked for the compiled code of one solution before every child compiles its own
LENGTH = struct.Struct("<Q")  # the compiled code's length, before it on the code channel


class Solution:
    """One solution's source and the limits its tests run under.

    The zygote only reads the bytes (a regular file, at most `source_limit` of them); it never
    parses them: each child compiles the source itself, confined and limited like the test, so
    a source that is slow, huge or deep to compile costs that child (CE, TLE or MLE), not us.
    """

    def __init__(self, request: dict, confinement=None):
        self.path = request["path"]
        self.confinement = confinement  # the kernel layers its children enter (None: off)
        self.program = Program(request["program"]) if request.get("program") else None
        self.interactive = request.get("mode") == "interactive"  # a stdin program facing an interactor
        self.stdin_mode = self.interactive or request.get("mode") == "stdin"
        # a test may be a tree of processes (the package's runner forks): engine/tree.py, when bounded here
        self.processes = bool(request.get("processes"))
        self.compile_only = False  # the load check of a stdin program: compile, say so, run nothing
        self.class_name = request.get("class")
        self.method = request.get("method")
        self.time_limit = float(request["time_limit"])
        self.memory_bytes = int(request["memory_mib"]) * 1024 * 1024
        # Seconds a test may spend neither running nor waiting for a CPU, and waiting for a CPU
        # (protocol.Limits, whose rules also stand for a request that leaves them out).
        rules = Limits(self.time_limit, int(request["memory_mib"]))
        self.address_space = rules.address_space
        # a stdin program's standard output kept: the problem's output limit, at most ANSWER_CAP
        self.answer_cap = min(ANSWER_CAP, int(request.get("output_limit_mib", ANSWER_CAP >> 20)) << 20)
        self.idle_limit = float(request.get("idle_limit", rules.idle))
        self.overload_wait = float(request.get("overload_wait", rules.overload))
        self.modules: dict[str, bytes] = {}  # a Python program's other files, for its imports (child.py)
        self.source = b"" if self.program else self._read_python(request, int(request["source_limit"]))
        self.code = CompiledCode() if self.program is None else None

    def _read_python(self, request: dict, limit: int) -> bytes:
        """The source to run. A multi-file program ("entry": the file it starts from, in the folder
        "path") and a package's included files ("include": a folder) are read by protocol.read_tree's
        rules, and the other files kept in `modules`: the child imports them from memory, never
        from the disk."""
        entry, include = request.get("entry"), request.get("include")
        if entry and os.path.isdir(self.path):
            self.modules = read_tree(self.path, limit)
            self.path = os.path.join(self.path, entry)
        elif entry:  # one file, and the package's included files beside it
            self.modules = {os.path.basename(self.path): read_source(self.path, limit)}
            self.path = os.path.join(os.path.dirname(self.path), entry)
        if include:
            self.modules |= read_tree(include, limit)  # the format: included files replace the solution's
        source = self.modules.pop(entry) if entry in self.modules else read_source(self.path, limit)
        constants = request.get("constants")
        if constants:  # a 2025-09 package's {{name}} sequences, replaced in every file before it runs
            self.modules = {name: substitute_constants(data, constants) for name, data in self.modules.items()}
            source = substitute_constants(source, constants)
        return source

    def data_limit(self, baseline: int) -> int:
        """RLIMIT_DATA: the memory limit above what the process holds before the solution runs."""
        if self.program is not None:  # exec starts afresh: the runtime's own share, not the zygote's
            return self.memory_bytes + self.program.data_extra
        return baseline + self.memory_bytes

    def stack_limit(self) -> int:
        """RLIMIT_STACK: the memory limit (recursion as deep as memory allows), or the program's own."""
        return self.program.stack if self.program is not None and self.program.stack else self.memory_bytes

    def cpu_backstop(self) -> int:
        return math.ceil(self.time_limit) + 1 + (self.program.cpu_extra if self.program else 0)


class CompiledCode:
    """The solution's code as the first child compiled it (marshal), for the children after it.

    Each child compiles the source itself, confined and limited (see Solution), so the zygote never
    parses it. The first child hands what it compiled to the zygote on a pipe of its own (the code
    channel), written and closed before any code of the solution runs, without waiting: its
    marshal, after its length (LENGTH); a child whose compile warned (its warnings are part of every
    test's output), failed or does not fit in the pipe writes nothing. The zygote only stores the
    bytes and hands them to the children it forks later, which load them instead of compiling: one
    compile per solution and worker rather than one per test. The bytes never leave children of the
    same solution, so they can only make that solution's own tests fail."""

    def __init__(self):
        self.marshaled: bytes | None = None  # complete, once the zygote has read it
        self._reading: int | None = None  # the code channel's read end, while a child has it
        self._buffer = b""
        self._tries = 0

    def channel(self) -> int | None:
        """For the child about to be forked: the write end of a new code channel (the zygote closes
        its copy after the fork), or None when the code is known or is being compiled by another."""
        self.collect()
        if self.marshaled is not None or self._reading is not None or self._tries >= CODE_TRIES:
            return None
        self._tries += 1
        self._reading, writing = os.pipe2(os.O_CLOEXEC | os.O_NONBLOCK)  # the child never waits on it
        if writing <= ARGS_FD:  # a descriptor the child's channels are moved onto: this child compiles alone
            os.close(writing)
            return None
        return writing

    def settled(self) -> bool:
        """Whether what a child is forked with can no longer change: the code is known, or no child
        will be asked for it again."""
        self.collect()
        return self.marshaled is not None or (self._reading is None and self._tries >= CODE_TRIES)

    def collect(self) -> None:
        """Read what the child wrote, without waiting; at its end, keep it if it is whole."""
        if self._reading is None:
            return
        try:
            while chunk := os.read(self._reading, 1 << 16):
                self._buffer += chunk
        except BlockingIOError:  # the child has not closed its end yet
            return
        self.close()
        data, self._buffer = self._buffer, b""
        if len(data) > LENGTH.size and LENGTH.unpack_from(data)[0] == len(data) - LENGTH.size:
            self.marshaled = data[LENGTH.size:]

    def close(self) -> None:
        if self._reading is not None:
            os.close(self._reading)
            self._reading = None


class Program:
    """A compiled solution (C++ binary, the JVM with our entry class), exec'd by the confined child.

    The language decides all of it on the judge's side (tcjudge.languages); the zygote only execs.
    """

    READY_TIMEOUT = 30.0  # seconds for a runtime to start on a loaded machine; past it: IE

    def __init__(self, spec: dict):
        self.argv = [str(arg) for arg in spec["argv"]]
        self.env = {str(k): str(v) for k, v in spec.get("env", {}).items()}
        self.readable = [str(path) for path in spec.get("readable", [])]
        self.profile = str(spec["profile"])
        self.stdio = bool(spec.get("stdio"))  # arguments on 0, result on 1 (where 3 and 4 are out of reach)
        self.ready = bool(spec.get("ready"))  # says READY_LINE once started: start-up is not charged
        # serves test after test (the JVM): each test's arguments as one line, NEXT_LINE after its
        # result, READY_LINE again when it can take another (see Zygote.run_child)
        self.serves = self.ready and bool(spec.get("serves"))
        self.result_channel = bool(spec.get("result_channel", True))  # False: a stdin program ends by its exit
        self.crash_channel = bool(spec.get("crash_channel"))  # our runtime writes there when it crashes
        self.data_extra = int(spec.get("data_extra_mib", 0)) << 20
        # RLIMIT_STACK, where not the memory limit (0): a runtime whose every thread takes the stack limit
        # as its stack's size (glibc's default), while its language's own limit bounds recursion (node)
        self.stack = int(spec.get("stack_mib", 0)) << 20
        self.cpu_extra = int(spec.get("cpu_extra", 0))
