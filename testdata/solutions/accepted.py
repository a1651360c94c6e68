# expect: AC
# Correct, and checks that arrays arrive as tuples (TopCoder's Python convention).
class Adder:
    def add(self, values, factor):
        assert isinstance(values, tuple), "arrays must arrive as tuples"
        return sum(values) * factor
