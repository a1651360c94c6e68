# expect: WA
# threat: (2) a child that runs as root uses root's capabilities: change its uid with setresuid
#   (CAP_SETUID) and map the page at address 0 with MAP_FIXED (CAP_SYS_RAWIO, below mmap_min_addr),
#   the first steps of a kernel NULL-dereference exploit or of leaving the judge's uid.
# why: a root child drops every capability (bounding, ambient, effective, permitted, inheritable)
#   before it confines itself, so both calls fail with EPERM and the solution returns 0 (WA); either
#   succeeding raises "LEAK" (RE). As uid 65534 they fail anyway.
import ctypes
import os

libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
PROT_READ, MAP_PRIVATE, MAP_ANONYMOUS, MAP_FIXED = 1, 0x02, 0x20, 0x10
MAP_FAILED = ctypes.c_void_p(-1).value


class Vault:
    def open(self, seed):
        try:
            os.setresuid(12345, 12345, 12345)
        except OSError:
            pass
        else:
            raise RuntimeError("LEAK: setresuid succeeded")
        page = libc.mmap(0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
        if page != MAP_FAILED:  # (ctypes gives None for the address 0 itself)
            raise RuntimeError("LEAK: mapped the page at address 0")
        return 0
