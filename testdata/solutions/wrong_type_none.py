# expect: WA
# Forgets to return.
class Adder:
    def add(self, values, factor):
        sum(values) * factor
