# Reads "greedy" as a rule for every move: it always plays the pit that puts the most
# pieces home right now (the lowest such pit on ties) and keeps doing so while it earns
# extra moves. A move that scores less now but keeps the chain alive can be better,
# so on such boards the answer is too low: WA.

def play(board, pit):
    """Play `pit` on the 13-slot board (index 6 = our home) in place; True if we go again."""
    pos = pit
    while True:
        hand, board[pos] = board[pos], 0
        for _ in range(hand):
            pos = (pos + 1) % 13
            board[pos] += 1
        if pos == 6:
            return True
        if board[pos] == 1:
            return False


class Mankala:
    def greedyMove(self, player1, player2):
        board = list(player1) + [0] + list(player2)
        while any(board[:6]):
            choices = []
            for pit in range(6):
                if board[pit]:
                    trial = board[:]
                    again = play(trial, pit)
                    choices.append((trial[6], -pit, trial, again))
            _, _, board, again = max(choices)
            if not again:
                break
        return board[6]
