# Keeps our pits, our home and the opponent's pits in one 13-entry list but steps
# around it modulo 14, as if the opponent's home were still in the list. The first
# sowing or relay that goes past pit 11 indexes board[13]: IndexError, RE.
from functools import lru_cache


def sow(board, pit):
    board = list(board)
    pos = pit
    while True:
        hand, board[pos] = board[pos], 0
        for _ in range(hand):
            pos = (pos + 1) % 14
            board[pos] += 1
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
