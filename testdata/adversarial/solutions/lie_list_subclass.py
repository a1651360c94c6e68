# expect: WA
# threat: (1) lie about equality: return a list subclass that equals everything and whose
#   elements are int subclasses that also equal everything.
# why: the child sends a plain JSON list of plain ints; the judge type-checks against "long"
#   first, and a list is not a long: WA.
class Liar(int):
    def __eq__(self, other):
        return True

    __hash__ = int.__hash__


class Everything(list):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = None


class Vault:
    def open(self, seed):
        return Everything([Liar(1), Liar(2)])
