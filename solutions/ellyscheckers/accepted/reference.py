# Reference solution: parity of the total distance to the last cell.
# Every move (a step of 1 or a jump of 3) lowers the sum of the checkers' distances to the
# last cell by an odd amount, and the game ends exactly when that sum reaches 0. So the
# number of moves played has the parity of the initial sum, whatever the players do:
# the first player wins iff the sum is odd. O(n); accepted.


class EllysCheckers:
    def getWinner(self, board):
        last = len(board) - 1
        total = sum(last - i for i, cell in enumerate(board) if cell == 'o')
        return "YES" if total % 2 == 1 else "NO"
