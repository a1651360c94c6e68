# expect: RE
# Divides by zero on the first test.
class Adder:
    def add(self, values, factor):
        return sum(values) // (factor - 2)
