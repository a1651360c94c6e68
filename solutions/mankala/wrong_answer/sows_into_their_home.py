# Full search over moves with memoisation, but the sowing walks all 14 pits and drops
# pieces into the opponent's home pit too, instead of skipping it. Whenever a sowing
# or relay goes past pit 11 the pieces land one pit short of where they should: WA.
from functools import lru_cache


def sow(board, pit):
    board = list(board)
    pos = pit
    while True:
        hand, board[pos] = board[pos], 0
        for _ in range(hand):
            pos = (pos + 1) % 14
            board[pos] += 1
        if pos in (6, 13) or board[pos] == 1:
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

        return best(tuple(player1) + (0,) + tuple(player2) + (0,))
