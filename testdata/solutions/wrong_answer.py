# expect: WA
# Forgets the factor.
class Adder:
    def add(self, values, factor):
        return sum(values)
