# Brute force over move sequences: try every pit after every prefix of moves, each time
# replaying the whole sequence from the starting board to learn whether it is legal,
# what it scores and whether the turn goes on. Correct, but it neither shares work
# between sequences nor remembers positions; on boards with long chains of extra turns
# (hundreds of thousands of sequences, each replayed from scratch) it needs far more
# than 2 s: TLE.

class Mankala:
    def greedyMove(self, player1, player2):
        self.start = list(player1) + [0] + list(player2)   # index 6 is our home pit
        return self.search([])

    def simulate(self, moves):
        """(home pieces, turn goes on) after `moves`, or None if some move is illegal."""
        board = self.start[:]
        pos = 6
        for pit in moves:
            if pos != 6 or board[pit] == 0:
                return None
            pos = pit
            while True:
                count = board[pos]
                board[pos] = 0
                for _ in range(count):
                    pos = (pos + 1) % 13
                    board[pos] += 1
                if pos == 6 or board[pos] == 1:
                    break
        return board[6], pos == 6

    def search(self, moves):
        """Best final home count over every continuation of `moves` (0 if none is legal)."""
        best = 0
        for pit in range(6):
            result = self.simulate(moves + [pit])
            if result is None:
                continue
            score, again = result
            best = max(best, score, self.search(moves + [pit]) if again else 0)
        return best
