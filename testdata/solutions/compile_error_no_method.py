# expect: CE
# Misspells the method.
class Adder:
    def addition(self, values, factor):
        return sum(values) * factor
