# Memoised search over bitmasks stored in a list of size 2**(n-1): the last cell is always
# empty during play, so it gets no bit. But the checker that starts on the last cell is not
# removed first, so the starting mask has bit n-1 set and indexes past the end of the table
# (IndexError) on any board ending in 'o', first on "..o..o" (example 1). Runtime error.


class EllysCheckers:
    def getWinner(self, board):
        self.n = len(board)
        self.memo = [None] * (1 << (self.n - 1))
        start = 0
        for i, cell in enumerate(board):
            if cell == 'o':
                start |= 1 << i
        return "YES" if self.wins(start) else "NO"

    def wins(self, mask):
        """True if the player to move wins from `mask` (bit i set = checker on cell i)."""
        if self.memo[mask] is None:
            last = self.n - 1
            result = False
            for i in range(last):
                if not mask >> i & 1:
                    continue
                for target in (i + 1, i + 3):
                    if target > last or mask >> target & 1:
                        continue
                    if target == i + 3 and not (mask >> (i + 1) & mask >> (i + 2) & 1):
                        continue
                    after = mask & ~(1 << i)
                    if target != last:
                        after |= 1 << target
                    if not self.wins(after):
                        result = True
                        break
                if result:
                    break
            self.memo[mask] = result
        return self.memo[mask]
