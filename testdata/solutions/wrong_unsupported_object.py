# expect: WA
# Returns an object of its own class that claims to equal everything.
class Anything:
    def __eq__(self, other):
        return True


class Adder:
    def add(self, values, factor):
        return Anything()
