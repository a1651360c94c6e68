# expect: MLE
# Reaches the memory limit (and survives it by catching MemoryError), then runs out of time:
# reaching the memory limit decides the verdict whatever happened after it.
class Stability:
    def run(self, n):
        hoard = []
        try:
            while True:
                hoard.append(bytearray(1 << 20))
        except MemoryError:
            del hoard[-8:]
        while True:
            pass
