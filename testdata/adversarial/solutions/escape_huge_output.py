# expect: WA
# threat: (4) flood the judge with output: 64 MiB to stdout and 64 MiB to stderr (through both
#   Python's streams and the raw descriptors), to fill its memory or a log.
# why: both streams go to a pipe the zygote drains, keeping the first 8 KiB and dropping the rest,
#   so the flood costs only the solution's own CPU time (well within 1 s); then it returns 0: WA.
import os
import sys


class Vault:
    def open(self, seed):
        chunk = "x" * (1 << 20)
        for _ in range(32):
            sys.stdout.write(chunk)
            sys.stderr.write(chunk)
        raw = b"y" * (1 << 20)
        for _ in range(32):
            os.write(1, raw)
            os.write(2, raw)
        return 0
