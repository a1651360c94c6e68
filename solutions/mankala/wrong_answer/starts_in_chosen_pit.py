# Memoised search over moves whose sowing loop drops the first piece back into the pit
# it just emptied and only then steps forward, an off-by-one that makes every sowing
# and every relay end one pit short of where it should: WA.
from functools import lru_cache


def sow(board, pit):
    board = list(board)
    pos = pit
    while True:
        hand, board[pos] = board[pos], 0
        for _ in range(hand):
            board[pos] += 1
            pos = (pos + 1) % 13
        last = (pos - 1) % 13
        if last == 6 or board[last] == 1:
            return tuple(board), last == 6
        pos = last


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
