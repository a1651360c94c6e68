# expect: MLE
# Builds a list far larger than the 64 MiB limit (Python raises MemoryError at the limit).
class Adder:
    def add(self, values, factor):
        table = [0] * (100 * 1024 * 1024)
        return sum(values) * factor + len(table) * 0
