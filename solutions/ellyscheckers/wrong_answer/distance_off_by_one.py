# Parity of the total distance, but with an off-by-one: the distance of cell i is taken as
# len(board) - i (cells up to and including the last one) instead of len(board) - 1 - i.
# Each checker then adds one extra move, so the answer flips whenever the number of checkers
# is odd (a checker on the last cell even counts as one move). Wrong answer, already on
# ".o..." (example 0).


class EllysCheckers:
    def getWinner(self, board):
        n = len(board)
        total = 0
        for i in range(n):
            if board[i] == 'o':
                total += n - i
        return "YES" if total % 2 == 1 else "NO"
