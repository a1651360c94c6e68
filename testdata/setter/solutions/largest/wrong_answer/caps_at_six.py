# Wrong only when some value is 7 or more: it caps every value at 6 (the minimal counterexample is [7]).
class Largest:
    def largest(self, values):
        return max(min(v, 6) for v in values)
