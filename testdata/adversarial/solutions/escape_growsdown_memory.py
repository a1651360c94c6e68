# expect: MLE
# expect-message: MemoryError
# threat: (4) hold memory past the limit where RLIMIT_DATA does not look: a 650 MiB private
#   anonymous mapping with MAP_GROWSDOWN (a "stack" mapping, which the data limit does not count),
#   every page touched, under the vault's 128 MiB limit. MLE was only decided afterwards, from the
#   peak, while the machine had already given the memory.
# why: seccomp denies MAP_GROWSDOWN (ENOMEM), and a memory cgroup, where the judge may use one,
#   bounds every kind of memory while the test runs: the allocation fails, MemoryError, MLE.
import ctypes

PROT_READ, PROT_WRITE = 1, 2
MAP_PRIVATE, MAP_ANONYMOUS, MAP_GROWSDOWN = 0x02, 0x20, 0x0100
SIZE = 650 * 1024 * 1024

libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]


class Vault:
    def open(self, seed):
        address = libc.mmap(None, SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_GROWSDOWN, -1, 0)
        if address in (None, ctypes.c_void_p(-1).value):
            raise MemoryError(f"mmap MAP_GROWSDOWN failed: errno {ctypes.get_errno()}")
        ctypes.memset(address, 1, SIZE)
        return 0
