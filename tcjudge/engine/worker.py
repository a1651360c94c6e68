"""The judge's side of a worker: start a zygote, hand it a solution and one test at a time, read facts.

The zygote is a fresh interpreter with a minimal environment, so a solution can see neither the
judge's memory (expected outputs) nor its environment variables.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..protected import PROJECT_ROOT
from ..protocol import SOURCE_LIMIT, Limits, ready_to_read

if TYPE_CHECKING:
    from ..verdicts import RunFacts

BOOTSTRAP = (f"import sys; sys.path.insert(0, {str(PROJECT_ROOT)!r}); from tcjudge.engine.zygote import serve; "
             "serve(confine=sys.argv[1] == 'confine', judge=int(sys.argv[2]))")
MINIMAL_ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "PYTHONHASHSEED": "0"}
START_TIMEOUT = 30.0  # seconds for a new interpreter to say it is ready (slow machines, cold caches)
READY_GRACE = 30.0  # more for a runtime that says when it has started (the JVM): the zygote waits that long
CLOSE_GRACE = 1.0  # seconds for a zygote to clean up after itself when asked to end
ANSWER_GRACE = 10.0  # seconds past a child's own limits before the judge gives up on the zygote


class WorkerDied(Exception):
    """The zygote stopped answering: a fault of the harness (or the machine), never of a solution."""


class Worker:
    """One zygote process and the solution currently loaded in it."""

    def __init__(self, python: str = sys.executable, confine: bool = True, cpu: int | None = None,
                 wait: bool = True):
        """`python`: the interpreter for the zygote (it needs only the standard library);
        `confine`: apply the kernel layers (off only to measure what they cost); `cpu`: pin the
        zygote, and so every child it forks, to this CPU; `wait`: for it to say it is ready (else
        wait_ready() does, before its first request: the zygote starts meanwhile)."""
        self.python, self.confine = python, confine
        self._stderr = _scratch_file()
        self.process = subprocess.Popen(
            [python, "-S", *(["-B"] if sys.flags.dont_write_bytecode else []), "-P", "-c", BOOTSTRAP,
             "confine" if confine else "bare", str(os.getpid())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=MINIMAL_ENV,
            cwd="/",
            close_fds=True,
        )
        self._buffer = bytearray()
        self.baseline_kib: int | None = None  # known once the zygote has said it is ready
        self.warnings: list[str] = []
        self.loaded_key: tuple | None = None
        self.served: tuple | None = None
        self._answer_timeout = ANSWER_GRACE
        self.pin(cpu)
        if wait:
            self.wait_ready()

    def pin(self, cpu: int | None) -> None:
        """Hold the zygote, and every child it forks from now on, to this CPU (None: any)."""
        if cpu is not None:
            try:
                os.sched_setaffinity(self.process.pid, {cpu})
            except OSError:  # the process already died (reported when it is asked) or the CPU went offline
                pass

    def wait_ready(self) -> None:
        """Wait (bounded) for the zygote to say it is ready; raises WorkerDied (and closes it) if it does not."""
        if self.baseline_kib is not None:
            return
        try:
            hello = self._receive(START_TIMEOUT)
        except WorkerDied:
            self.close()
            raise
        self.baseline_kib = hello["baseline_kib"]
        self.warnings = hello["problems"]

    def alive(self) -> bool:
        return self.process.poll() is None

    def load(self, key: tuple, path: Path, class_name: str | None, method: str | None, time_limit: float,
             memory_mib: int, check: bool, mode: str = "method", source_limit: int = SOURCE_LIMIT,
             program: dict | None = None, output_limit_mib: int | None = None, protect: list = (),
             fields: dict | None = None, patience: float = 1.0) -> dict:
        """Hand a solution to the zygote (and, with check, compile and load it once in a child); see zygote docs.
        `mode` "stdin": a program reading its input (no class or method). `program`: a compiled
        language's program to exec instead (tcjudge.languages); `fields`: the rest of the request
        (a multi-file Python program's "entry" and "include": Language.load_fields); `patience`: the
        overload bound (protocol.Limits.overload) times this, for a test graded again after it."""
        self.loaded_key = None
        self.served = key  # the solution this worker was given (Pool gives it no other)
        limits = Limits(time_limit, memory_mib)
        start_up = READY_GRACE if program and program.get("ready") else 0.0
        overload = limits.overload * patience
        self._answer_timeout = limits.wall_bound + overload - limits.overload + ANSWER_GRACE + start_up
        response = self._ask({
            "op": "load", "path": str(Path(path).resolve()), "class": class_name, "method": method,
            "time_limit": time_limit, "memory_mib": memory_mib, "check": check, "mode": mode,
            "source_limit": source_limit,
            "idle_limit": limits.idle, "overload_wait": overload,
            "protect": [str(path) for path in protect],
        } | ({"output_limit_mib": output_limit_mib} if output_limit_mib else {}) | ({"program": program} if program else {})
            | (fields or {}))
        if response.get("ok"):
            self.loaded_key = key
        if "facts" in response:
            response["facts"] = _facts(response["facts"])
        return response

    def run(self, args: tuple) -> RunFacts:
        self.send_test(args=args)
        return self.answer()

    def run_interactive(self, interactor: dict) -> RunFacts:
        """One test of an interactive program: the zygote starts `interactor` (tcjudge.protocol) beside it."""
        return _facts(self._ask({"op": "run", "interactor": interactor}))

    def run_input(self, data: bytes) -> RunFacts:
        """One test of a stdin program: `data` on its standard input, its standard output in the facts."""
        self.send_test(data=data)
        return self.answer()

    def send_test(self, args: tuple | None = None, data: bytes | None = None, cap: int | None = None) -> bool:
        """Send one test's request (a method's `args`, or a stdin program's input `data`) without
        waiting for its answer, which answer() reads: the zygote holds requests in order and starts
        the next as soon as it has done with the one before. False, and nothing sent, when the request
        is longer than `cap` bytes."""
        request = {"op": "run", "args": list(args)} if data is None else {"op": "run", "input": base64.b64encode(data).decode()}
        line = json.dumps(request).encode() + b"\n"
        if cap is not None and len(line) > cap:
            return False
        self._send(line)
        return True

    def answer(self, timeout: float | None = None) -> RunFacts:
        """The facts of the oldest test sent and not answered yet; raises WorkerDied, and past
        `timeout` seconds (default: as long as the test can take) kills the zygote first."""
        return _facts(self._answer(timeout))

    def ask_to_end(self) -> None:
        """Tell the zygote to end (it then reaps its children and removes their cgroups), without
        waiting: a pool asks all its zygotes first, so that they clean up at once."""
        try:
            self.process.stdin.close()
        except OSError:  # a request still buffered for a zygote that died (BrokenPipeError)
            pass

    def close(self) -> bool:
        """End the zygote: asked first, killed if it does not end within CLOSE_GRACE. True when it
        ended on its own (then it removed its cgroups itself; else remove_stale_cgroups does)."""
        if self.process.poll() is None:
            try:
                self.ask_to_end()
                _wait_for_exit(self.process, CLOSE_GRACE)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self._stderr):
            try:
                stream.close()
            except OSError:  # a request still buffered for a zygote that died (BrokenPipeError)
                pass
        return self.process.returncode == 0

    # -- the pipe protocol ------------------------------------------------------------------------

    def _ask(self, request: dict) -> dict:
        self._send(json.dumps(request).encode() + b"\n")
        return self._answer()

    def _send(self, line: bytes) -> None:
        try:
            self.process.stdin.write(line)
            self.process.stdin.flush()
        except (OSError, ValueError):  # a dead zygote, or a pipe the pool closed (cancelled) under us
            raise self._died("stopped accepting requests") from None

    def _answer(self, timeout: float | None = None) -> dict:
        response = self._receive(self._answer_timeout if timeout is None else timeout)
        if "internal_error" in response:
            raise WorkerDied(f"the worker failed: {response['internal_error']}")
        return response

    def _receive(self, timeout: float) -> dict:
        """One response line; each chunk is searched once, so a long line costs linear time."""
        deadline = time.monotonic() + timeout
        try:
            fd = self.process.stdout.fileno()
        except ValueError:  # closed by the pool (cancelled) while this thread was about to read
            raise self._died("was closed") from None
        end = self._buffer.find(b"\n")
        while end < 0:
            remaining = deadline - time.monotonic()
            try:
                if remaining <= 0 or not ready_to_read([fd], remaining):
                    raise self._died(f"did not answer within {timeout:.0f} s")
                chunk = os.read(fd, 1 << 20)
            except OSError:  # its pipe was closed by the pool (cancelled) while this thread waited
                raise self._died("was closed") from None
            if not chunk:
                raise self._died("exited")
            newline = chunk.find(b"\n")
            if newline >= 0:
                end = len(self._buffer) + newline
            self._buffer += chunk
        line = bytes(self._buffer[:end])
        del self._buffer[: end + 1]
        return json.loads(line)

    def _died(self, what: str) -> WorkerDied:
        self.process.kill()
        self.process.wait()
        try:
            self._stderr.seek(0)
            tail = self._stderr.read().decode("utf-8", "replace").strip().splitlines()[-1:]
        except ValueError:  # closed by the pool already (cancelled): nothing more to say
            tail = []
        detail = f": {tail[0]}" if tail else ""
        return WorkerDied(f"the worker process {what} (exit status {self.process.returncode}){detail}")


def _wait_for_exit(process: subprocess.Popen, timeout: float) -> None:
    """Popen.wait(timeout), woken the moment the process ends (by its pidfd) rather than at Popen's
    polling steps, 0.5, 1.5, 3.5 ms...: a zygote that took 1.6 ms to clean up was seen gone at 3.5."""
    try:
        pidfd = os.pidfd_open(process.pid)
    except (AttributeError, OSError):  # no pidfd here, or already reaped
        process.wait(timeout)
        return
    try:
        if not ready_to_read([pidfd], timeout):
            raise subprocess.TimeoutExpired(process.args, timeout)
    finally:
        os.close(pidfd)
    process.wait()


def _scratch_file():
    """An anonymous file for what a zygote says on its standard error (read when it dies): a memfd,
    without tempfile's import (2 ms of every start, with shutil's) where the kernel has them."""
    try:
        return open(os.memfd_create("zygote-stderr", os.MFD_CLOEXEC), "w+b")
    except (AttributeError, OSError):
        import tempfile

        return tempfile.TemporaryFile()


def _facts(message: dict) -> RunFacts:
    """The facts of a zygote's answer (verdicts is imported here, at the first test: launch.py imports
    this module to start grade's first zygote, before anything it does not need)."""
    from ..verdicts import RunFacts

    return RunFacts.from_message(message)


def close_workers(workers: list[Worker], stale: bool = False) -> None:
    """End `workers`, all asked first so that they clean up at once; the cgroups of any that did not
    end on its own (and, when `stale`, of earlier ones that did not) are removed: only then is the
    sandbox's code imported (a short grade's last milliseconds)."""
    for worker in workers:
        worker.ask_to_end()
    if not all([worker.close() for worker in workers]) or stale:
        remove_stale_cgroups()


def remove_stale_cgroups(patience: float = 0.5) -> None:
    """Remove the per-test cgroups of zygotes that are gone (a zygote dies with the judge thread
    that started it, before it can clean up); children still exiting get `patience` seconds."""
    from .sandbox.cgroup import sweep

    deadline = time.monotonic() + patience
    while sweep() and time.monotonic() < deadline:
        time.sleep(0.01)
