# Bitmask DP whose state also carries the number of moves made so far (to know whose turn it
# is), with the whole table allocated up front: n*n move counts times 2**n masks. That is
# 26 MB for the 14-cell example 2, but about 1.5 GB for the 19-cell example 3, so the
# process passes 256 MiB within a fraction of a second while still filling the table.
# Memory limit exceeded.

import sys


class EllysCheckers:
    def getWinner(self, board):
        sys.setrecursionlimit(10000)
        self.n = len(board)
        self.dp = [[-1] * (1 << self.n) for _ in range(self.n * self.n + 1)]
        mask = 0
        for i in range(self.n - 1):
            if board[i] == 'o':
                mask |= 1 << i
        return "YES" if self.solve(mask, 0) == 1 else "NO"

    def solve(self, mask, moves):
        """1 if the player to move (the first iff `moves` is even) wins from `mask`, else 0."""
        if self.dp[moves][mask] != -1:
            return self.dp[moves][mask]
        result = 0
        last = self.n - 1
        for i in range(last):
            if not mask >> i & 1:
                continue
            for target in (i + 1, i + 3):
                if target > last or mask >> target & 1:
                    continue
                if target == i + 3 and not (mask >> (i + 1) & 1 and mask >> (i + 2) & 1):
                    continue
                nxt = mask ^ (1 << i)
                if target != last:
                    nxt |= 1 << target
                if self.solve(nxt, moves + 1) == 0:
                    result = 1
        self.dp[moves][mask] = result
        return result
