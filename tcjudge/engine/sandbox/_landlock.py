"""Thin ctypes binding for Landlock (Linux >= 5.13), just what the judge needs.

Reference: the kernel's Documentation/userspace-api/landlock.rst and include/uapi/linux/landlock.h.
ABI history that matters here:
  1 (5.13)  filesystem rights EXECUTE .. MAKE_SYM (bits 0-12)
  2 (5.19)  REFER (bit 13)              3 (6.2)  TRUNCATE (bit 14)
  4 (6.7)   TCP bind/connect rights      5 (6.10) IOCTL_DEV (bit 15)
  6 (6.12)  scopes: abstract unix sockets, signals
  7 (6.15)  restrict_self logging flags
A ruleset "handles" rights; a handled right is denied everywhere except beneath rules that grant it.
"""

from __future__ import annotations

import ctypes
import os
import stat

from . import _sys

CREATE_RULESET_VERSION = 1 << 0
CREATE_RULESET_ERRATA = 1 << 1
RULE_PATH_BENEATH = 1

FS_EXECUTE = 1 << 0
FS_WRITE_FILE = 1 << 1
FS_READ_FILE = 1 << 2
FS_READ_DIR = 1 << 3
FS_REMOVE_DIR = 1 << 4
FS_REMOVE_FILE = 1 << 5
FS_MAKE_CHAR = 1 << 6
FS_MAKE_DIR = 1 << 7
FS_MAKE_REG = 1 << 8
FS_MAKE_SOCK = 1 << 9
FS_MAKE_FIFO = 1 << 10
FS_MAKE_BLOCK = 1 << 11
FS_MAKE_SYM = 1 << 12
FS_REFER = 1 << 13
FS_TRUNCATE = 1 << 14
FS_IOCTL_DEV = 1 << 15

NET_BIND_TCP = 1 << 0
NET_CONNECT_TCP = 1 << 1

SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0
SCOPE_SIGNAL = 1 << 1

RESTRICT_SELF_LOG_SAME_EXEC_OFF = 1 << 0

# What the sandbox may do beneath an allowed path: read files, list directories, execute.
READ_ONLY_DIR = FS_READ_FILE | FS_READ_DIR | FS_EXECUTE
READ_ONLY_FILE = FS_READ_FILE | FS_EXECUTE  # a rule on a non-directory may hold file rights only


class RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


class PathBeneathAttr(ctypes.Structure):
    _pack_ = 1  # the kernel struct is __attribute__((packed)): 12 bytes
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def handled_fs(abi: int) -> int:
    if abi >= 5:
        return (1 << 16) - 1
    if abi >= 3:
        return (1 << 15) - 1
    if abi >= 2:
        return (1 << 14) - 1
    return (1 << 13) - 1


def handled_net(abi: int) -> int:
    return NET_BIND_TCP | NET_CONNECT_TCP if abi >= 4 else 0


def scoped(abi: int) -> int:
    return SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if abi >= 6 else 0


def restrict_flags(abi: int) -> int:
    # A hostile solution may loop on denied opens; with audit enabled each would be one record.
    return RESTRICT_SELF_LOG_SAME_EXEC_OFF if abi >= 7 else 0


def _attr_size(abi: int) -> int:
    # Pass only the fields this kernel knows: older kernels reject a larger struct with
    # non-zero trailing bytes (E2BIG).
    if abi >= 6:
        return 24
    if abi >= 4:
        return 16
    return 8


def abi_version() -> tuple[int, int, str]:
    """(abi, errata, reason). abi 0 means unavailable and reason says why."""
    arch, why = _sys.native_arch()
    if arch is None:
        return 0, 0, why
    lc = _sys.libc()
    abi = lc.syscall3(_sys.NR_LANDLOCK_CREATE_RULESET, 0, 0, CREATE_RULESET_VERSION)
    if abi < 0:
        err = ctypes.get_errno()
        if err == 38:  # ENOSYS
            return 0, 0, "kernel built without Landlock (needs Linux >= 5.13, CONFIG_SECURITY_LANDLOCK)"
        if err == 95:  # EOPNOTSUPP
            return 0, 0, "Landlock is compiled in but disabled at boot (add 'landlock' to the lsm= list)"
        return 0, 0, f"landlock_create_ruleset(VERSION) failed: {_sys.errno_name(err)}"
    errata = lc.syscall3(_sys.NR_LANDLOCK_CREATE_RULESET, 0, 0, CREATE_RULESET_ERRATA)
    return int(abi), max(int(errata), 0), ""


def create_ruleset(abi: int) -> int:
    attr = RulesetAttr(handled_fs(abi), handled_net(abi), scoped(abi))
    fd = _sys.libc().syscall3(_sys.NR_LANDLOCK_CREATE_RULESET, ctypes.addressof(attr), _attr_size(abi), 0)
    return _sys.check(fd, "landlock_create_ruleset")  # the kernel returns it O_CLOEXEC


def allow_read(ruleset_fd: int, path: str) -> None:
    """Grant read-only access beneath `path` (a directory) or to `path` (a file)."""
    _allow(ruleset_fd, path, READ_ONLY_FILE, READ_ONLY_DIR)


def allow_read_write(ruleset_fd: int, path: str, abi: int) -> None:
    """Grant reading and writing beneath `path` (a directory) or to `path` (a file): for a
    compiler's build directory, never for solution code. No devices, sockets, pipes or links."""
    file_rights = READ_ONLY_FILE | FS_WRITE_FILE | (FS_TRUNCATE if abi >= 3 else 0)
    _allow(ruleset_fd, path, file_rights, file_rights | READ_ONLY_DIR | FS_REMOVE_DIR | FS_REMOVE_FILE
           | FS_MAKE_DIR | FS_MAKE_REG)


def covers(granted: str, path: str) -> bool:
    """Whether a rule on `granted` reaches `path` (both resolved): the same path, or one beneath."""
    return granted == "/" or path == granted or path.startswith(granted.rstrip("/") + "/")


def beneath_except(roots: list[str], holes: list[str]) -> list[str]:
    """Resolved paths whose rules reach everything beneath `roots` except what is beneath `holes`.

    Landlock only ever allows, so a root that holds a hole is replaced by its entries, each taken
    the same way: the siblings along the way to a hole are granted whole and the hole is not.
    Links are resolved first, so no rule lands on a hole or above one, whatever path led there;
    a root on or beneath a hole is left out."""
    holes = [os.path.realpath(hole) for hole in holes]
    granted: list[str] = []
    seen: set[str] = set()

    def take(path: str) -> None:
        real = os.path.realpath(path)
        if real in seen or not os.path.lexists(real) or any(covers(hole, real) for hole in holes):
            return
        seen.add(real)
        if not any(covers(real, hole) for hole in holes):
            granted.append(real)
            return
        try:
            names = sorted(os.listdir(real))
        except OSError:  # (not a folder we can list: nothing of it is granted)
            return
        for name in names:
            take(os.path.join(real, name))

    for root in roots:
        take(root)
    return granted


def _allow(ruleset_fd: int, path: str, file_rights: int, dir_rights: int) -> None:
    fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    try:
        is_dir = stat.S_ISDIR(os.fstat(fd).st_mode)
        attr = PathBeneathAttr(dir_rights if is_dir else file_rights, fd)
        r = _sys.libc().syscall4(
            _sys.NR_LANDLOCK_ADD_RULE, ruleset_fd, RULE_PATH_BENEATH, ctypes.addressof(attr), 0
        )
        _sys.check(r, f"landlock_add_rule({path})")
    finally:
        os.close(fd)
