# Guesses from the one-checker and two-checker cases that only the number of checkers
# matters: the first player wins iff an odd number of checkers takes part (the one on the last
# cell is ignored). Right on all five examples, but the distances are what decide the game,
# e.g. "o.." has one checker yet two moves. Wrong answer.


class EllysCheckers:
    def getWinner(self, board):
        playing = board[:-1].count('o')
        return "YES" if playing % 2 == 1 else "NO"
