"""Independent check of EllysCheckers: an exhaustive game search that simply plays the rules.

It does not use the parity argument of the reference solution. Positions are strings of
'.'/'o' whose last cell is always empty; a position is a win for the player to move iff some
legal move leads to a position that is a loss. The memo is shared across calls, so all the
tests of the problem (boards of up to 20 cells) are answered in well under a second in total.
"""

import sys

EMPTY, CHECKER = '.', 'o'

_memo = {}

# A game lasts at most 19 + 18 + ... + 1 = 190 moves, and each move is one level of recursion.
sys.setrecursionlimit(max(sys.getrecursionlimit(), 2000))


def _successors(position):
    """Every position reachable in one move; a checker that lands on the last cell vanishes."""
    cells = list(position)
    last = len(cells) - 1
    for i, cell in enumerate(cells):
        if cell != CHECKER:
            continue
        targets = []
        if i + 1 <= last and cells[i + 1] == EMPTY:
            targets.append(i + 1)
        if i + 3 <= last and cells[i + 1] == cells[i + 2] == CHECKER and cells[i + 3] == EMPTY:
            targets.append(i + 3)
        for target in targets:
            moved = cells[:]
            moved[i] = EMPTY
            if target != last:
                moved[target] = CHECKER
            yield ''.join(moved)


def _mover_wins(position):
    """True iff the player to move on `position` can force a win (memoised minimax)."""
    if position not in _memo:
        _memo[position] = any(not _mover_wins(nxt) for nxt in _successors(position))
    return _memo[position]


def solve(board):
    """The answer for `board`: a checker on its last cell vanishes at once, then Elly moves."""
    start = board[:-1] + EMPTY
    return "YES" if _mover_wins(start) else "NO"


def random_input(rng):
    """A random board of 1 to 12 cells with a random density of checkers."""
    length = rng.randint(1, 12)
    density = rng.random()
    return {"board": ''.join(CHECKER if rng.random() < density else EMPTY for _ in range(length))}

