# expect: WA
# Returns an int subclass whose __eq__ always says yes: the judge compares plain data, not objects.
class Liar(int):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = int.__hash__


class Adder:
    def add(self, values, factor):
        return Liar(-1)
