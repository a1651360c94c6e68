# expect: MLE
# expect-message: MemoryError
# threat: (4) exhaust the judge machine's memory with huge private allocations: a 1 GiB private
#   anonymous mmap, then a 16 GiB bytearray.
# why: RLIMIT_DATA (the 128 MiB limit above the interpreter's baseline) covers private writable
#   mappings, so the mmap fails with ENOMEM (caught) and the bytearray raises MemoryError, which
#   propagates: MLE "the memory limit was reached", with almost nothing actually used. A mapping
#   that succeeded raises "LEAK" (RE).
import mmap


class Vault:
    def open(self, seed):
        try:
            mmap.mmap(-1, 1 << 30, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        except OSError:
            pass
        else:
            raise RuntimeError("LEAK: mapped 1 GiB of private memory over a 128 MiB limit")
        bytearray(16 << 30)
        return 0
