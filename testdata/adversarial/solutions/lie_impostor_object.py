# expect: RE
# threat: (1) an object claiming to be anything: __class__ says int (so isinstance(x, int) is
#   True), __eq__ is always True, and __index__, __int__, __float__, __str__, __iter__ all answer.
# why: the child converts with int.__index__(value), a C-level check of the real type, which raises
#   TypeError while the child prepares its report; an error after returning is a runtime error:
#   RE (never AC, and never an equality test run with the solution's own __eq__).
class Impostor:
    @property
    def __class__(self):
        return int

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __hash__(self):
        return 0

    def __index__(self):
        return 0

    __int__ = __index__

    def __float__(self):
        return 0.0

    def __str__(self):
        return "0"

    def __iter__(self):
        return iter(())


class Vault:
    def open(self, seed):
        return Impostor()
