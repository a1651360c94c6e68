# expect: RE
# expect-message: larger than the 1 MiB
# threat: (4) tie up a worker with a result over the result channel's 1 MiB cap: a String of 2 MiB.
#   The cut-off part held the line's end, so the worker waited for a newline that never came and
#   the test ended as a wall-clock TLE seconds later, not as the documented RE.
# why: a result is over as soon as it passes the cap: the worker stops reading, the test is RE at
#   once, with a message that says why.


class Vault:
    def open(self, seed):
        return "x" * (2 * 1024 * 1024)
