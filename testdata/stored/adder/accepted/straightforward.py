# Sums, then multiplies: the plain correct answer.
class Adder:
    def add(self, values, factor):
        return factor * sum(values)
