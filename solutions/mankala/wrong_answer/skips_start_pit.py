# Memoised search over moves that sows with the Kalah convention of leaving out the pit
# the pieces were taken from when a sowing goes all the way round. With 13 or more
# pieces in one pit (possible here: up to 30 pieces) the emptied pit should receive
# pieces too, so those boards come out wrong: WA.
from functools import lru_cache


def sow(board, pit):
    board = list(board)
    pos = pit
    while True:
        origin, hand = pos, board[pos]
        board[pos] = 0
        while hand:
            pos = (pos + 1) % 13
            if pos != origin:
                board[pos] += 1
                hand -= 1
        if pos == 6 or board[pos] == 1:
            return tuple(board), pos == 6


class Mankala:
    def greedyMove(self, player1, player2):
        @lru_cache(maxsize=None)
        def best(board):
            result = board[6]
            for pit in range(6):
                if board[pit]:
                    after, again = sow(board, pit)
                    result = max(result, best(after) if again else after[6])
            return result

        return best(tuple(player1) + (0,) + tuple(player2))
