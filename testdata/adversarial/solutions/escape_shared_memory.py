# expect: MLE
# expect-message: MemoryError
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
