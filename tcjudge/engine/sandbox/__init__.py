"""Kernel confinement layers for solution processes: no_new_privs, Landlock, seccomp.

Use:
    conf = prepare(readable_paths, must_not_cover=[project_dir])  # once, in the zygote
    ... fork ...
    # child: rlimits, fd redirection (keep conf.keep_fds open!), then
    conf.enter()        # ~0.2 ms; raises ConfinementError if anything fails
    ... exec the solution ...

If enter() raises, the child is in an unknown, partly confined state: it must _exit() without
running solution code. Layers the kernel does not offer are reported inactive (with the reason)
in conf.layers and probe(); they never make prepare() or enter() fail.

See docs/security.md for what each layer stops and what is not covered.
"""

from __future__ import annotations

import errno
import os
import struct
import sys
import sysconfig
from collections import namedtuple
from collections.abc import Iterable

from . import _landlock, _seccomp, _sys
from .profiles import JVM, NATIVE, PROFILES, PYTHON, Profile

__all__ = ["LayerStatus", "Confinement", "ConfinementError", "Profile", "PROFILES", "PYTHON", "NATIVE", "JVM",
           "probe", "prepare", "warning_line"]

_pack_u32 = struct.Struct("=I").pack_into
LAYER_NAMES = ("no_new_privs", "landlock.fs", "landlock.net", "landlock.scope", "seccomp")


class LayerStatus(namedtuple("LayerStatus", "name active detail")):
    """One layer: its name, whether it is active, and its version and what it stops when active,
    or why not when inactive. (Named tuples, not dataclasses, on the zygote's side: see
    protocol.Limits.)"""

    __slots__ = ()


class ConfinementError(RuntimeError):
    """enter() could not apply a layer that prepare() promised: do not run solution code."""


# --- paths the interpreter needs after fork -----------------------------------------------------

_SYSTEM_DIRS = ("/lib", "/lib64", "/lib32", "/usr/lib", "/usr/lib64", "/usr/lib32", "/usr/local/lib")
_SYSTEM_FILES = ("/etc/ld.so.cache",)


def interpreter_paths() -> list[str]:
    """What CPython needs to import stdlib, site-packages and extension modules after fork.

    Every entry is a system location: never sys.path entries in general (a .pth or -P-less run
    may put the project itself there).
    """
    paths: list[str] = []
    for schema_vars in (None, {"base": sys.base_prefix, "platbase": sys.base_exec_prefix}):
        got = sysconfig.get_paths(vars=schema_vars) if schema_vars else sysconfig.get_paths()
        paths += [got[k] for k in ("stdlib", "platstdlib", "purelib", "platlib") if k in got]
    libdir = sysconfig.get_config_var("LIBDIR")
    if libdir:
        paths.append(libdir)
    paths += _SYSTEM_DIRS
    paths += _SYSTEM_FILES
    return paths


def _mapped_library_dirs() -> list[str]:
    """Directories of shared objects already mapped (libpython, libffi, ... in unusual prefixes)."""
    dirs = []
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                parts = line.split(None, 5)
                if len(parts) == 6 and parts[5].startswith("/") and ".so" in parts[5]:
                    d = os.path.dirname(parts[5].rstrip("\n"))
                    if d not in dirs:
                        dirs.append(d)
    except OSError:
        pass
    return dirs


# --- probe ---------------------------------------------------------------------------------------


def _landlock_layers(abi: int, errata: int, why: str, n_paths: int | None = None) -> list[LayerStatus]:
    if abi <= 0:
        return [LayerStatus(n, False, why) for n in ("landlock.fs", "landlock.net", "landlock.scope")]
    ver = f"Landlock ABI {abi}" + (f" (errata 0x{errata:x})" if errata else "")
    where = f"{n_paths} read-only paths" if n_paths is not None else "read-only system paths"
    truncate = "truncate" if abi >= 3 else "truncate (not before ABI 3: seccomp blocks truncate(2))"
    fs = LayerStatus(
        "landlock.fs", True,
        f"{ver}: read/execute beneath {where} only; no write, create, delete, rename, link, {truncate}"
        + (", device ioctl" if abi >= 5 else "") + " anywhere but /dev/null; /proc, the rest of /dev, /tmp, the project unreadable",
    )  # fmt: skip
    net = (
        LayerStatus("landlock.net", True, f"{ver}: TCP bind and connect denied")
        if abi >= 4
        else LayerStatus("landlock.net", False, f"needs Landlock ABI 4 (Linux 6.7), kernel has {abi}")
    )
    scope = (
        LayerStatus("landlock.scope", True, f"{ver}: no signals or abstract-unix connects outside the sandbox")
        if abi >= 6
        else LayerStatus("landlock.scope", False, f"needs Landlock ABI 6 (Linux 6.12), kernel has {abi}")
    )
    return [fs, net, scope]


def _seccomp_layer(arch: str | None, why: str, profile: Profile = PYTHON) -> LayerStatus:
    if arch is None:
        return LayerStatus("seccomp", False, why)
    groups = _seccomp.deny_groups(profile)
    n = sum(1 for _g, _w, _a, names in groups for nm in names if nm in _seccomp.SYSCALLS[arch])
    relaxed = [name for name in ("exec", "executable_memory", "growsdown", "async_signals", "own_scheduling")
               if getattr(profile, name)]
    return LayerStatus(
        "seccomp", True,
        f"{arch} BPF deny list ({n} syscalls + {len(_seccomp.conditional(profile))} argument checks): no fork"
        f"{'' if profile.exec else '/exec'}, no sockets, no ptrace or signals to others (fcntl F_SETOWN/O_ASYNC "
        f"included), no namespaces/mounts/bpf/io_uring/keys, no chmod/chown/xattr, no SysV/POSIX IPC, no "
        f"MAP_GROWSDOWN or executable anonymous memory; syscalls > {_seccomp.MAX_REVIEWED_NR} get ENOSYS"
        + (f"; profile {profile.name} relaxes: {', '.join(relaxed)}" if relaxed else "")
        + ("; processes allowed: a bounded tree (no setsid, setpgid or CLONE_PARENT)" if profile.processes else ""),
    )  # fmt: skip


def _nnp_layer() -> LayerStatus:
    if _sys.libc().prctl(_sys.PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) < 0:
        return LayerStatus("no_new_privs", False, "PR_SET_NO_NEW_PRIVS unsupported (Linux < 3.5)")
    return LayerStatus("no_new_privs", True, "execve cannot grant privileges (setuid, file capabilities)")


def probe() -> list[LayerStatus]:
    """What this machine offers (no restriction is applied)."""
    abi, errata, why = _landlock.abi_version()
    arch, swhy = _seccomp.availability()
    return [_nnp_layer(), *_landlock_layers(abi, errata, why), _seccomp_layer(arch, swhy)]


def warning_line(layers: Iterable[LayerStatus]) -> str | None:
    """One line naming the inactive layers, or None when all are active."""
    off = [f"{l.name} ({l.detail})" for l in layers if not l.active]
    return "sandbox layers inactive: " + "; ".join(off) if off else None


# --- prepare / enter -----------------------------------------------------------------------------


class Confinement:
    """Everything enter() needs, built in the zygote; enter() runs in each forked child."""

    def __init__(self, layers, ruleset_fd, restrict_flags, seccomp_prog, granted_paths):
        self.layers: list[LayerStatus] = layers
        self.granted_paths: tuple[str, ...] = granted_paths
        self._ruleset_fd: int = ruleset_fd  # -1 when Landlock is inactive
        self._landlock = ruleset_fd >= 0
        self._closed = False
        self._restrict_flags = restrict_flags
        self._prog = seccomp_prog  # (Program, ctypes array, SockFprog) or None
        self._owner_pid = os.getpid()
        lc = _sys.libc()
        self._syscall3 = lc.syscall3
        self._prctl = lc.prctl
        self._nnp = any(l.name == "no_new_privs" and l.active for l in layers)
        self._capabilities = _Capabilities(self._prctl, self._syscall3) if os.geteuid() == 0 else None
        if self._prog is not None:
            prog, arr, fprog = self._prog
            self._fprog_addr = _seccomp.ctypes.addressof(fprog)
            # byte offsets of the k fields that hold the confined process's own pid
            self._filter_mem = memoryview(arr).cast("B")
            self._pid_offsets = tuple(8 * i + 4 for i in prog.pid_slots)
            self._exec_slots = tuple((8 * i + 4, shift) for i, shift in prog.exec_slots)

    def reaches(self, path: str) -> bool:
        """Whether a child of this confinement could read `path` (a granted path is it or above it)."""
        real = os.path.realpath(path)
        return any(_landlock.covers(granted, real) for granted in self.granted_paths)

    @property
    def keep_fds(self) -> tuple[int, ...]:
        """fds that must stay open in the child until enter() (which closes them)."""
        return (self._ruleset_fd,) if self._ruleset_fd >= 0 else ()

    def enter(self, exec_path: bytes | None = None) -> int | None:
        """Confine the calling process for good, in the forked child before any thread is started
        (fork copies only the calling thread; Landlock and seccomp are applied to this thread and
        inherited by threads and processes it creates afterwards).

        Under an exec profile, `exec_path` is the program the child is about to become: returns
        the address of the one copy of it that execve accepts (see exec_token); pass exactly that
        pointer to execve. None when no filter decides (seccomp off, or not an exec profile)."""
        pid = os.getpid()
        if pid == self._owner_pid:
            raise ConfinementError("enter() must run in a forked child, not in the process that called prepare()")
        if self._closed:
            raise ConfinementError("enter() after close(): the Landlock ruleset is gone")
        step = "capabilities"
        try:
            if self._capabilities is not None:  # (an unprivileged process holds no capability to drop)
                self._capabilities.drop()
            step = "no_new_privs"
            if self._nnp and self._prctl(_sys.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
                _sys.check(-1, "prctl(PR_SET_NO_NEW_PRIVS)")
            if self._landlock:
                step = "landlock"
                r = self._syscall3(_sys.NR_LANDLOCK_RESTRICT_SELF, self._ruleset_fd, self._restrict_flags, 0)
                _sys.check(r, "landlock_restrict_self")
                os.close(self._ruleset_fd)
            token = None
            if self._prog is not None:
                step = "seccomp"
                mem = self._filter_mem
                for off in self._pid_offsets:
                    _pack_u32(mem, off, pid)
                if self._exec_slots and exec_path is not None:
                    token = exec_token(exec_path)
                    for off, shift in self._exec_slots:
                        _pack_u32(mem, off, (token >> shift) & 0xFFFFFFFF)
                r = self._prctl(_sys.PR_SET_SECCOMP, _seccomp.SECCOMP_MODE_FILTER, self._fprog_addr, 0, 0)
                _sys.check(r, "prctl(PR_SET_SECCOMP)")
        except OSError as e:
            raise ConfinementError(f"confinement failed at {step}: {e}; the process is partly confined") from e
        return token

    def close(self) -> None:
        """Release the ruleset fd in the zygote when no more children will be forked."""
        if os.getpid() != self._owner_pid:
            return
        if self._ruleset_fd >= 0:
            os.close(self._ruleset_fd)
            self._ruleset_fd = -1
        self._closed = True


def prepare(
    readable_paths: Iterable[str] = (),
    *,
    must_not_cover: Iterable[str] = (),
    landlock: bool = True,
    seccomp: bool = True,
    profile: Profile = PYTHON,
) -> Confinement:
    """Build all layers once, in the zygote (a few milliseconds; nothing is applied here).

    readable_paths: extra files or directories the solution may read (read-only). Each must exist.
        The interpreter's own needs (stdlib, site-packages, lib-dynload, system library
        directories, /etc/ld.so.cache, directories of already-mapped shared objects) are added.
    must_not_cover: paths that must stay unreadable (project folder, problems, expected outputs):
        a readable_path equal to or above one of them is a ValueError; an interpreter directory
        that would be is granted as its entries minus the way to them (_landlock.beneath_except).
    landlock / seccomp: switch a layer off (tests use this to check each layer on its own).
    profile: what the runtime needs beyond the strict default (PYTHON): NATIVE lets the child execve
        one prepared binary (put its folder in readable_paths: EXECUTE is granted there), JVM also
        allows executable anonymous memory for the JIT. See profiles.py.
    """
    secrets = [os.path.realpath(p) for p in must_not_cover]

    def grantable(path: str, strict: bool) -> str | None:
        real = os.path.realpath(path)
        bad = [s for s in secrets if _landlock.covers(real, s)]
        if real == "/" or bad:
            if strict:
                raise ValueError(f"readable path {path!r} would expose {bad or ['/']}")
            return None
        return real

    explicit: list[str] = []
    for path in readable_paths:
        if not os.path.exists(path):
            raise FileNotFoundError(f"readable path does not exist: {path}")
        explicit.append(grantable(path, strict=True))  # type: ignore[arg-type]

    layers = [_nnp_layer()]
    ruleset_fd, flags, granted = -1, 0, []
    if landlock:
        abi, errata, why = _landlock.abi_version()
    else:
        abi, errata, why = 0, 0, "disabled by prepare(landlock=False)"
    if abi > 0:
        granted = list(explicit)
        for path in dict.fromkeys(interpreter_paths() + _mapped_library_dirs()):
            if os.path.exists(path) and os.path.realpath(path) != "/":
                # an interpreter or library directory that holds a secret (a project kept beneath
                # it) is granted as its entries minus the way to the secret
                for real in _landlock.beneath_except([path], secrets):
                    if real not in granted:
                        granted.append(real)
        ruleset_fd = _landlock.create_ruleset(abi)
        try:
            for real in granted:
                _landlock.allow_read(ruleset_fd, real)
            # /dev/null, the file alone, read and written: what a closed standard stream becomes
            # (the JDK puts it in place of a closed System.in; C and Python reopen it too)
            _landlock.allow_read_write(ruleset_fd, os.devnull, abi)
        except BaseException:
            os.close(ruleset_fd)
            raise
        flags = _landlock.restrict_flags(abi)
    layers += _landlock_layers(abi, errata, why, len(granted))

    prog = None
    if seccomp:
        arch, swhy = _seccomp.availability()
    else:
        arch, swhy = None, "disabled by prepare(seccomp=False)"
    if arch is not None:
        program = _seccomp.build_program(arch, profile, scoped=abi >= 6)
        arr, fprog = _seccomp.compile_program(program)
        prog = (program, arr, fprog)
    layers.append(_seccomp_layer(arch, swhy, profile))
    return Confinement(layers, ruleset_fd, flags, prog, tuple(granted))


PAGE = 4096
USER_PAGES = 0x7FFF_FFFF_F000  # page-aligned addresses of a 47-bit user address space
PROT_READ, PROT_WRITE = 1, 2
MAP_PRIVATE, MAP_ANONYMOUS, MAP_FIXED_NOREPLACE = 0x02, 0x20, 0x100000
TOKEN_TRIES = 16


def exec_token(path: bytes) -> int:
    """A NUL-terminated copy of `path` at a random address of this process, which the exec
    profiles' filter takes as the only path pointer execve may be given.

    It is placed in the forked child, before the filter is entered, on a page of its own at a
    random address (about 2**35 choices) and a random 8-byte offset in it (2**9): the program exec'd
    through it starts in a new address space where nothing tells that address, so neither its code
    nor anything linked into it or run before its main can exec again (a guess is right about once
    in 2**44 tries). Where no random page can be had (a smaller address space), the kernel's
    randomised choice stands."""
    if len(path) + 1 > PAGE:
        raise OSError(errno.ENAMETOOLONG, "the program's path is longer than a page")
    lc = _sys.libc()
    page = None
    for _ in range(TOKEN_TRIES):
        hint = int.from_bytes(os.urandom(8), "little") & USER_PAGES
        if hint < 1 << 32:  # clear of the low addresses (mmap_min_addr, a non-PIE program's image)
            continue
        got = lc.mmap(hint, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0)
        if got == hint:
            page = got
            break
        if got not in (None, 2**64 - 1):  # a kernel before 4.17 takes the flag as a hint only
            lc.munmap(got, PAGE)
    if page is None:
        page = lc.mmap(None, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        if page in (None, 2**64 - 1):
            raise OSError(_sys.ctypes.get_errno(), "mmap of the exec token failed")
    page = int(page)
    address = page + 8 * (int.from_bytes(os.urandom(4), "little") % ((PAGE - len(path) - 1) // 8 + 1))
    _sys.ctypes.memmove(address, path + b"\0", len(path) + 1)
    return address


def drop_bounding_set() -> None:
    """Empty this process's capability bounding set (as root; elsewhere it holds none to drop), for a
    process whose children each drop it anyway: the zygote, once, so that no child spends a system
    call per capability (_Capabilities). Its own effective capabilities stay (its cgroups need them);
    what it execs itself, a problem's interactor, gets none."""
    if os.geteuid() != 0:
        return
    prctl = _sys.libc().prctl
    for cap in range(_last_capability(prctl) + 1):
        prctl(_sys.PR_CAPBSET_DROP, cap, 0, 0, 0)  # (fails without CAP_SETPCAP: each child then drops it)


def drop_all_capabilities() -> None:
    """As root, keep no capability in any set, and none that an exec could grant (_Capabilities): for
    a process about to exec a program a submission steers (a compiler: GHC runs a shell its source's
    pragma names). Nothing to drop elsewhere."""
    if os.geteuid() == 0:
        lc = _sys.libc()
        _Capabilities(lc.prctl, lc.syscall3).drop()


def _last_capability(prctl) -> int:
    """The kernel's last capability (read, not probed by failing drops)."""
    last = 0
    while last < _sys.CAP_LAST_POSSIBLE and prctl(_sys.PR_CAPBSET_READ, last + 1, 0, 0, 0) >= 0:
        last += 1  # (EINVAL past the kernel's last capability)
    return last


class _Capabilities:
    """What a root child drops: no capability in its bounding set (so no exec can grant one), none
    ambient, none effective, permitted or inheritable. A root solution then cannot setuid, map page 0
    (mmap_min_addr), or do anything else that needs a capability; its uid stays 0 for file access,
    which Landlock already bounds.

    Everything but the system calls is prepared here, in the zygote: the kernel's last capability
    (read, not probed by failing drops), the capset header and its all-zero data. A child that
    built them itself copied about 75 pages of the zygote's memory (ctypes objects) on every test.
    Where the zygote emptied its own bounding set first (drop_bounding_set), a child inherits it
    empty and skips the one system call per capability (about 0.15 ms of every test)."""

    def __init__(self, prctl, syscall3):
        self._prctl, self._syscall3 = prctl, syscall3
        self._last = _last_capability(prctl)
        self._bounding_empty = not any(prctl(_sys.PR_CAPBSET_READ, cap, 0, 0, 0) for cap in range(self._last + 1))
        self._header = (_sys.ctypes.c_uint32 * 2)(_sys.CAPABILITY_VERSION_3, 0)
        self._data = (_sys.ctypes.c_uint32 * 6)()  # two {effective, permitted, inheritable} words, all zero
        arch, _ = _sys.native_arch()
        self._capset = _sys.NR_CAPSET.get(arch or "")
        self._addresses = (_sys.ctypes.addressof(self._header), _sys.ctypes.addressof(self._data))

    def drop(self) -> None:
        """In the child (root): drop them all; raises OSError when capset fails."""
        prctl = self._prctl
        for cap in range(0 if self._bounding_empty else self._last + 1):
            prctl(_sys.PR_CAPBSET_DROP, cap, 0, 0, 0)
        prctl(_sys.PR_CAP_AMBIENT, _sys.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)  # EINVAL before Linux 4.3: none to clear
        if self._capset is None:
            raise OSError(_sys.errno.ENOSYS, "capset: unknown architecture")
        _sys.check(self._syscall3(self._capset, *self._addresses, 0), "capset")
