# expect: CE
# Imports a module that does not exist.
import numpyy


class Adder:
    def add(self, values, factor):
        return sum(values) * factor
