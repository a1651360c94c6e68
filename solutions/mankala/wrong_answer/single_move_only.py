# Tries each of our six pits once, follows the relays, and returns the best count for
# that single move. It forgets that a last piece in our home pit earns another move, so
# any board where a chain of extra moves beats the best single move is answered too
# low: WA.

class Mankala:
    def greedyMove(self, player1, player2):
        best = 0
        for pit in range(6):
            if player1[pit] == 0:
                continue
            board = list(player1) + [0] + list(player2)   # index 6 is our home pit
            pos = pit
            while True:
                hand, board[pos] = board[pos], 0
                for _ in range(hand):
                    pos = (pos + 1) % 13
                    board[pos] += 1
                if pos == 6 or board[pos] == 1:
                    break
            best = max(best, board[6])
        return best
