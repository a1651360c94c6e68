# expect: RE
# Prints what an out-of-memory crash would print, then aborts: its output is its own, not the
# judge's evidence, so the signal is a runtime error, not a memory limit.
import os


class Adder:
    def add(self, values, factor):
        print("MemoryError: out of memory", flush=True)
        os.abort()
