# expect: WA
# Returns a boolean where a long is expected (True == 1 in Python, but not in TopCoder).
class Adder:
    def add(self, values, factor):
        return True
