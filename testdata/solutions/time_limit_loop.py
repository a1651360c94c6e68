# expect: TLE
# Loops forever.
class Adder:
    def add(self, values, factor):
        while True:
            pass
