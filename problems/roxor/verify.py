"""Independent checker for Roxor.

Two methods, neither sharing code or formulas with the solutions:

* Small positions are solved by an exhaustive, memoised search over whole pile states that knows
  only the rules: a position is won for the player to move when some legal move leads to a lost one.
  No game theory is assumed. A stone d piles before the last one can cause at most 2^d - 1 moves,
  so that sum bounds the game length and decides whether the search is cheap enough.
* Larger positions use the Sprague-Grundy theorem: each stone is a separate game; its Grundy
  value is found by an explicit mex over every (j, k) it can split into (no closed form), and each
  candidate move (i, j, k) is tried by building the resulting position and testing that its value
  is zero.
"""

EXHAUSTIVE_MAX_GAME_LENGTH = 60


def max_game_length(piles):
    """An upper bound on the number of moves left in the game."""
    last = len(piles) - 1
    return sum(count * (2 ** (last - p) - 1) for p, count in enumerate(piles))


def legal_moves(state):
    """Every legal (i, j, k) from this state, in the required tie-break order."""
    n = len(state)
    return [(i, j, k) for i in range(n) if state[i] for j in range(i + 1, n) for k in range(j, n)]


def apply_move(state, move):
    """The pile tuple after removing a stone from pile i and adding one to piles j and k."""
    i, j, k = move
    after = list(state)
    after[i] -= 1
    after[j] += 1
    after[k] += 1
    return tuple(after)


def first_winning_move_by_search(piles):
    """Search the whole game tree; return the first move that leaves the opponent lost."""
    won = {}

    def mover_wins(state):
        if state not in won:
            won[state] = any(not mover_wins(apply_move(state, m)) for m in legal_moves(state))
        return won[state]

    for move in legal_moves(tuple(piles)):
        if not mover_wins(apply_move(tuple(piles), move)):
            return list(move)
    return []


def single_stone_grundy(n):
    """Grundy value of one lone stone on each pile, by mex over all the (j, k) splits."""
    grundy = [0] * n
    for p in range(n - 1, -1, -1):
        reachable = {grundy[j] ^ grundy[k] for j in range(p + 1, n) for k in range(j, n)}
        value = 0
        while value in reachable:
            value += 1
        grundy[p] = value
    return grundy


def position_grundy(state, grundy):
    """Nim-sum over all stones; a pair of stones on the same pile cancels out."""
    value = 0
    for p, count in enumerate(state):
        if count % 2 == 1:
            value ^= grundy[p]
    return value


def first_winning_move_by_grundy(piles):
    """Try every legal move and keep the first whose resulting position has Grundy value zero."""
    grundy = single_stone_grundy(len(piles))
    for move in legal_moves(tuple(piles)):
        if position_grundy(apply_move(tuple(piles), move), grundy) == 0:
            return list(move)
    return []


def solve(piles):
    if max_game_length(piles) <= EXHAUSTIVE_MAX_GAME_LENGTH:
        return first_winning_move_by_search(piles)
    return first_winning_move_by_grundy(piles)


def random_input(rng):
    """Mostly small positions (searched exhaustively), sometimes full-range ones."""
    if rng.random() < 0.75:
        n = rng.randint(2, 6)
        piles = [rng.randint(0, 2) if rng.random() < 0.5 else 0 for _ in range(n)]
        while max_game_length(piles) > EXHAUSTIVE_MAX_GAME_LENGTH:
            piles[rng.randrange(n)] = 0
    else:
        n = rng.randint(2, 15)
        piles = [rng.randint(0, 1000) for _ in range(n)]
    if not any(piles[:-1]):
        piles[rng.randrange(n - 1)] = 1
    return {"piles": tuple(piles)}
