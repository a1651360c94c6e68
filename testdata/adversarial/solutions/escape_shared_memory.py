# expect: MLE
# expect-message: MemoryError
# engine-bug: the memory limit does not cover shared anonymous memory. harness/zygote.py
#   Zygote._limit sets only RLIMIT_DATA, which counts private writable mappings; mmap.mmap(-1, n)
#   is MAP_SHARED|MAP_ANONYMOUS (shmem), so a 1 GiB mapping succeeds and every touched page stays
#   resident. The limit is then only checked after the fact (peak RSS), so within one test's time
#   a solution can hold far more than memory_limit (hundreds of MiB per CPU second here; gigabytes
#   with a larger time limit), enough to push the judge machine into the OOM killer.
# threat: (4) exhaust the judge machine's memory through a mapping the memory limit forgets:
#   shared anonymous memory, touched page by page up to 192 MiB (1.5 x the limit, to keep the
#   damage small if it works).
# why: refusing the mapping (MemoryError at mmap) is the right outcome: MLE, "the memory limit was
#   reached". If the pages can be touched, "LEAK" is raised, and the judge reports MLE only from
#   the peak afterwards ("peak memory ... is over"), which the expect-message line rejects.
import mmap


class Vault:
    def open(self, seed):
        size = 192 << 20
        try:
            area = mmap.mmap(-1, size)
        except OSError as err:
            raise MemoryError(f"mmap refused: {err}") from None
        for offset in range(0, size, mmap.PAGESIZE):
            area[offset] = 1
        raise RuntimeError("LEAK: holding 192 MiB of shared anonymous memory over a 128 MiB limit")
