# expect: WA
# threat: (1) lie about equality: return an int subclass whose __eq__ always says True and whose
#   __ne__ always says False (and whose hash matches anything).
# why: the child turns the value into a plain int with int.__index__ before it crosses the pipe as
#   JSON; the judge compares plain data, so the lie never takes part: the value 7 is wrong, WA.
class Liar(int):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __hash__(self):
        return 0


class Vault:
    def open(self, seed):
        return Liar(7)
