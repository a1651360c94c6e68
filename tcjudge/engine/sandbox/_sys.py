"""Shared low-level helpers: which architecture we run on, and libc entry points via ctypes.

Nothing here applies any restriction; it only finds out what the machine offers and wraps
the libc functions the layers need (syscall, prctl, mmap). Kept tiny on purpose.
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct

# Architectures whose syscall numbers, audit arch value and seccomp_data layout were checked
# against the kernel's own tables (see _seccomp.py and tests/test_sandbox_layers.py).
SUPPORTED_ARCHES = ("x86_64", "aarch64")

# Landlock's three syscalls have the same numbers on every architecture that uses the unified
# table since 5.1 (x86_64 and aarch64 included); seccomp(2) does not.
NR_LANDLOCK_CREATE_RULESET = 444
NR_LANDLOCK_ADD_RULE = 445
NR_LANDLOCK_RESTRICT_SELF = 446
NR_SECCOMP = {"x86_64": 317, "aarch64": 277}

PR_CAPBSET_READ = 23
PR_CAPBSET_DROP = 24
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
NR_CAPSET = {"x86_64": 126, "aarch64": 91}
CAPABILITY_VERSION_3 = 0x20080522
CAP_LAST_POSSIBLE = 63  # the bounding set is dropped up to the kernel's last capability (EINVAL past it)
PR_SET_NO_NEW_PRIVS = 38
PR_GET_NO_NEW_PRIVS = 39
PR_GET_SECCOMP = 21
PR_SET_SECCOMP = 22


def native_arch() -> tuple[str | None, str]:
    """(arch, reason): arch is one of SUPPORTED_ARCHES, or None with the reason why not.

    The kernel's machine name is not enough: a 32-bit (i386 or x32) Python on an x86_64 kernel
    issues syscalls through another ABI, which a 64-bit filter would reject wholesale.
    """
    machine = os.uname().machine
    if machine == "arm64":
        machine = "aarch64"
    if machine not in SUPPORTED_ARCHES:
        return None, f"architecture {machine!r} has no verified syscall table (only {', '.join(SUPPORTED_ARCHES)})"
    if struct.calcsize("P") != 8:
        return None, f"{8 * struct.calcsize('P')}-bit Python on a {machine} kernel (32-bit ABI is not covered)"
    return machine, ""


class _Libc:
    """libc functions with fixed prototypes, created once (in the zygote) and reused after fork."""

    def __init__(self) -> None:
        lib = ctypes.CDLL(None, use_errno=True)
        c_long, c_ulong, c_int = ctypes.c_long, ctypes.c_ulong, ctypes.c_int
        # Separate prototypes, so our argtypes never leak into someone else's use of libc.syscall.
        self.syscall3 = ctypes.CFUNCTYPE(c_long, c_long, c_long, c_long, c_long, use_errno=True)(("syscall", lib))
        self.syscall4 = ctypes.CFUNCTYPE(c_long, c_long, c_long, c_long, c_long, c_long, use_errno=True)(
            ("syscall", lib)
        )
        self.prctl = ctypes.CFUNCTYPE(c_int, c_int, c_ulong, c_ulong, c_ulong, c_ulong, use_errno=True)(
            ("prctl", lib)
        )
        c_void_p, c_size_t = ctypes.c_void_p, ctypes.c_size_t
        self.mmap = ctypes.CFUNCTYPE(c_void_p, c_void_p, c_size_t, c_int, c_int, c_int, c_long, use_errno=True)(
            ("mmap", lib)
        )
        self.munmap = ctypes.CFUNCTYPE(c_int, c_void_p, c_size_t, use_errno=True)(("munmap", lib))


_LIBC: _Libc | None = None


def libc() -> _Libc:
    global _LIBC
    if _LIBC is None:
        _LIBC = _Libc()
    return _LIBC


def check(result: int, what: str) -> int:
    """Raise OSError(errno) when a libc wrapper returned -1."""
    if result == -1:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")
    return result


def read_whole(path: str) -> bytes:
    """A small kernel file (/proc, cgroupfs) in raw reads: open, read to the end, close, with no
    buffered file object around it (three system calls where open() makes seven: the zygote reads
    several of these per test)."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        chunks = []
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def errno_name(err: int) -> str:
    return errno.errorcode.get(err, str(err))
