# expect: TLE
# Spends forever in module-level code: loading the solution is timed too.
while True:
    pass


class Adder:
    def add(self, values, factor):
        return sum(values) * factor
