# Memoised win/lose search over the sorted tuple of checker positions.
# Plays the rules directly (steps, jumps over two checkers, checkers vanishing on the last
# cell) without the parity insight. Every move sends one checker right, so the positions form
# a DAG; a state is winning iff some move reaches a losing state, and the search stops at the
# first such move. With the memo only a small part of the at most 2**19 states is visited,
# well under a second on 20 cells; accepted.

from functools import lru_cache


class EllysCheckers:
    def getWinner(self, board):
        last = len(board) - 1
        start = tuple(i for i, cell in enumerate(board) if cell == 'o' and i != last)

        @lru_cache(maxsize=None)
        def wins(checkers):
            occupied = set(checkers)
            for k, pos in enumerate(checkers):
                moves = [pos + 1]
                if pos + 1 in occupied and pos + 2 in occupied:
                    moves.append(pos + 3)
                for target in moves:
                    if target > last or target in occupied:
                        continue
                    rest = checkers[:k] + checkers[k + 1:]
                    if target != last:
                        rest = tuple(sorted(rest + (target,)))
                    if not wins(rest):
                        return True
            return False

        return "YES" if wins(start) else "NO"
