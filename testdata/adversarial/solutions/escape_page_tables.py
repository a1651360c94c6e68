# expect: MLE
# threat: (4) hold kernel memory that no limit on the process's own memory sees: a 64 GiB read-only
#   private anonymous mapping (RLIMIT_DATA counts only writable ones), read one byte per 2 MiB, so
#   each read costs a page-table page (4 KiB) while the resident figure stays at the shared zero
#   page: 128 MiB of page tables for almost nothing; without a memory cgroup (a non-root judge)
#   nothing else would see it.
# why: every test's address space is bounded (RLIMIT_AS = max(16 GiB, 16 x the memory limit): page
#   tables at most 1/512 of it), so the mapping fails with ENOMEM, uncaught: MLE. A mapping that
#   succeeded builds its page tables, then raises "LEAK" (RE), unless a memory cgroup, which
#   charges page tables, kills it first.
import mmap

SIZE = 64 << 30
STRIDE = 2 << 20


class Vault:
    def open(self, seed):
        view = mmap.mmap(-1, SIZE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, prot=mmap.PROT_READ)
        total = 0
        for offset in range(0, SIZE, STRIDE):
            total += view[offset]
        raise RuntimeError(f"LEAK: read {SIZE // STRIDE} pages of a 64 GiB mapping (sum {total})")
