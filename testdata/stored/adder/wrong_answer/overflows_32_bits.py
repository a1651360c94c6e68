# Wraps the product to 32 bits, as C code with int would: wrong on the large test.
class Adder:
    def add(self, values, factor):
        total = (sum(values) * factor) & 0xFFFFFFFF
        return total - (1 << 32) if total >= 1 << 31 else total
