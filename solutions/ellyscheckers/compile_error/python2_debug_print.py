# The parity-of-distances idea, submitted with a Python 2 debugging print left in. Under
# Python 3 `print "..."` is a SyntaxError, so the file never compiles. Compile error.


class EllysCheckers:
    def getWinner(self, board):
        total = 0
        for i in range(len(board)):
            if board[i] == 'o':
                total += len(board) - 1 - i
        print "total distance:", total
        return "YES" if total % 2 == 1 else "NO"
