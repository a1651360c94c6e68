# expect: WA
# threat: (1) lie about equality: return a str subclass that equals everything and converts to any
#   int (__int__, __index__), hoping the judge compares with == or calls int() on it.
# why: the child sends str.__str__(value), a plain string, and the judge type-checks it against
#   "long" before comparing: wrong type, WA.
class Chameleon(str):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __hash__(self):
        return 0

    def __int__(self):
        return 0

    __index__ = __int__


class Vault:
    def open(self, seed):
        return Chameleon("anything")
