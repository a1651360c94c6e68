# expect: RE
# Recurses without end at the default recursion limit: RecursionError.
class Adder:
    def add(self, values, factor):
        return self.add(values, factor)
