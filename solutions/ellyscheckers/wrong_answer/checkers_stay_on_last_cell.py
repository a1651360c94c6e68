# Memoised game search over bitmasks that misses the rule that a checker reaching the last
# cell disappears: the last cell is treated like any other cell, so a checker parked there
# blocks the cell and the game ends with the checkers packed against the right end. Moves and
# jumps are otherwise right and the search is fast, but the number of moves (and so the
# winner) changes, e.g. "..o..o" becomes a loss. Wrong answer.

from functools import lru_cache


class EllysCheckers:
    def getWinner(self, board):
        n = len(board)
        start = 0
        for i, cell in enumerate(board):
            if cell == 'o':
                start |= 1 << i

        @lru_cache(maxsize=None)
        def wins(mask):
            for i in range(n - 1):
                if not mask >> i & 1:
                    continue
                if not mask >> (i + 1) & 1:
                    if not wins(mask ^ (1 << i) ^ (1 << (i + 1))):
                        return True
                if (i + 3 < n and mask >> (i + 1) & 1 and mask >> (i + 2) & 1
                        and not mask >> (i + 3) & 1):
                    if not wins(mask ^ (1 << i) ^ (1 << (i + 3))):
                        return True
            return False

        return "YES" if wins(start) else "NO"
