# expect: WA
# Returns a float where a long is expected, even when the value is integral.
class Adder:
    def add(self, values, factor):
        return float(sum(values) * factor)
