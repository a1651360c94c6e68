# Plain minimax over the board without any memoisation: try every step and jump, recurse,
# and win if some move leaves the opponent lost. It is correct, but it walks the whole game
# tree (it does not even stop at the first winning move), re-searching the same positions
# again and again: the 14-cell example 2 already has astronomically many move orders, far
# beyond 2 s. Time limit exceeded.


class EllysCheckers:
    def getWinner(self, board):
        cells = list(board)
        cells[-1] = '.'
        return "YES" if self.wins(cells) else "NO"

    def wins(self, cells):
        """True if the player to move on `cells` can force a win."""
        last = len(cells) - 1
        win = False
        for i in range(last):
            if cells[i] != 'o':
                continue
            for target in (i + 1, i + 3):
                if target > last or cells[target] != '.':
                    continue
                if target == i + 3 and not (cells[i + 1] == 'o' and cells[i + 2] == 'o'):
                    continue
                cells[i] = '.'
                if target != last:
                    cells[target] = 'o'
                if not self.wins(cells):
                    win = True
                cells[i] = 'o'
                cells[target] = '.'
        return win
