# expect: WA
# Returns a value outside the 64-bit range of a long.
class Adder:
    def add(self, values, factor):
        return 2**64
