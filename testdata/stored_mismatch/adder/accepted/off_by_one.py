# Stored as accepted but wrong (adds one): `check` must report the mismatch and exit 1.
class Adder:
    def add(self, values, factor):
        return sum(values) * factor + 1
