# expect: WA
# requires: seccomp
# threat: (4) start threads without Python, threading or libc: a few bytes of x86_64 machine code
#   in executable anonymous memory issue clone(CLONE_VM | CLONE_THREAD | ...) directly and park
#   each new thread in pause(). Hundreds of tasks in a few milliseconds, each a pid taken from the
#   machine; the threading module's limits never see them.
# why: seccomp denies executable anonymous or writable memory (EACCES) for Python solutions: no
#   machine code can be written and run, so the attack cannot start (and the pids cgroup or
#   RLIMIT_NPROC bound tasks anyway). It reports -1 (WA); a thread started would be a LEAK (RE).
import ctypes
import platform

PROT_RWX, MAP_PRIVATE_ANON = 7, 0x22
# mov eax, 56 (clone); mov edi, flags; xor esi, esi (same stack: the thread never touches it);
# xor edx, edx; xor r10d, r10d; xor r8d, r8d; syscall; test rax, rax; jnz +3;
# loop: mov eax, 34 (pause); syscall; jmp loop; done: ret
FLAGS = 0x100 | 0x200 | 0x400 | 0x800 | 0x10000 | 0x40000  # VM FS FILES SIGHAND THREAD SYSVSEM
CODE = (b"\xb8\x38\x00\x00\x00" + b"\xbf" + FLAGS.to_bytes(4, "little") + b"\x31\xf6\x31\xd2\x45\x31\xd2\x45\x31\xc0"
        + b"\x0f\x05\x48\x85\xc0\x75\x09" + b"\xb8\x22\x00\x00\x00\x0f\x05\xeb\xf7" + b"\xc3")

libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]


class Vault:
    def open(self, seed):
        if platform.machine() != "x86_64":
            return -1
        page = libc.mmap(None, 4096, PROT_RWX, MAP_PRIVATE_ANON, -1, 0)
        if page in (None, ctypes.c_void_p(-1).value):
            return -1  # no executable memory: contained
        ctypes.memmove(page, CODE, len(CODE))
        spawn = ctypes.CFUNCTYPE(ctypes.c_long)(page)
        started = sum(1 for _ in range(300) if spawn() > 0)
        raise RuntimeError(f"LEAK: {started} raw threads started from hand-made machine code")
