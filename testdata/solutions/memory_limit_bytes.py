# expect: MLE
# Allocates one huge bytes object in C: fails inside the allocator, which is MLE, not RE.
class Adder:
    def add(self, values, factor):
        return len(b"x" * (1 << 30))
