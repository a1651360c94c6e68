# Reference: depth-first search over the player's successive moves, memoised on the
# board. The board is a 14-slot ring (0-5 our pits, 6 our home, 7-12 the opponent's
# pits, 13 the opponent's home, which sowing skips). Every move that ends in our home
# adds at least one piece there, so the move graph is acyclic and small: AC.
from functools import lru_cache

OUR_HOME, THEIR_HOME, RING = 6, 13, 14


def sow(board, pit):
    """Play `pit` with relays; return (new board, pieces added home, ended in home)."""
    board = list(board)
    pos = pit
    while True:
        hand, board[pos] = board[pos], 0
        while hand:
            pos = (pos + 1) % RING
            if pos == THEIR_HOME:
                continue
            board[pos] += 1
            hand -= 1
        if pos == OUR_HOME or board[pos] == 1:
            gained, board[OUR_HOME] = board[OUR_HOME], 0
            return tuple(board), gained, pos == OUR_HOME


class Mankala:
    def greedyMove(self, player1, player2):
        @lru_cache(maxsize=None)
        def best(board):
            """Most pieces we can still bring home from `board` during this turn."""
            result = 0
            for pit in range(6):
                if board[pit]:
                    after, gained, again = sow(board, pit)
                    result = max(result, gained + (best(after) if again else 0))
            return result

        return best(tuple(player1) + (0,) + tuple(player2) + (0,))
