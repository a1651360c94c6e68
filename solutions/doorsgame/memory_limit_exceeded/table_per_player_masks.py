# Memoised minimax whose state records which colours John has named and which Gogo has named
# (two 16-bit masks), stored in one flat list indexed by both masks together. Only the union of
# the masks matters to the game, so the table is needlessly 2**32 entries (32 GiB of pointers),
# and it is allocated before the first move is searched: MemoryError on example 0.
# Verdict: memory limit exceeded.

COLOURS = 16
UNKNOWN = 99


def preference(result, john_moves):
    """How much the mover likes a result: a quick win, then a draw, then a slow loss."""
    mine = result if john_moves else -result
    return (2, -mine) if mine > 0 else (1, 0) if mine == 0 else (0, -mine)


class DoorsGame:
    def determineOutcome(self, doors, trophy):
        """Search from the empty position, John to move."""
        self.left = self.colour_mask(doors[:trophy])
        self.right = self.colour_mask(doors[trophy:])
        self.memo = [UNKNOWN] * (1 << (2 * COLOURS))
        return self.solve(0, 0)

    @staticmethod
    def colour_mask(part):
        """Bit set of the colours of a run of doors."""
        mask = 0
        for colour in part:
            mask |= 1 << (ord(colour) - ord('A'))
        return mask

    def solve(self, john, gogo):
        """Result of optimal play once John has named `john` and Gogo `gogo` (masks)."""
        index = john << COLOURS | gogo
        if self.memo[index] != UNKNOWN:
            return self.memo[index]
        opened = john | gogo
        named = bin(opened).count('1')
        john_moves = named % 2 == 0
        best = None
        for colour in range(COLOURS):
            bit = 1 << colour
            if opened & bit:
                continue
            now = opened | bit
            john_in = now & self.left == self.left
            gogo_in = now & self.right == self.right
            if john_in and gogo_in:
                result = 0
            elif john_in:
                result = named + 1
            elif gogo_in:
                result = -(named + 1)
            elif john_moves:
                result = self.solve(john | bit, gogo)
            else:
                result = self.solve(john, gogo | bit)
            if best is None or preference(result, john_moves) > preference(best, john_moves):
                best = result
        self.memo[index] = best
        return best
