# Memoised minimax over colour counts instead of colour sets: colours that lie only left of the
# trophy are interchangeable, as are those only right of it, those on both sides and those used
# nowhere, so a state is just how many of each kind are still closed (at most 17^4 states).
# Each player ranks outcomes as the statement says: a quick win, then a draw, then a long loss.
# Verdict: accepted (a few thousand states, milliseconds per test).
from functools import lru_cache

COLOURS = 16


def _rank(result, john_to_move):
    """How much the mover likes a final result (positive = John won after that many colours)."""
    mine = result if john_to_move else -result
    if mine > 0:
        return (2, -mine)      # a win: the sooner the better
    if mine == 0:
        return (1, 0)          # a draw
    return (0, -mine)          # a loss: the later the better


@lru_cache(maxsize=None)
def _final_result(only_left, only_right, shared, unused):
    """Result of optimal play with these many closed colours of each kind, the due player to move."""
    chosen_after = COLOURS - (only_left + only_right + shared + unused) + 1
    john_to_move = chosen_after % 2 == 1
    best = None
    for state in ((only_left - 1, only_right, shared, unused),
                  (only_left, only_right - 1, shared, unused),
                  (only_left, only_right, shared - 1, unused),
                  (only_left, only_right, shared, unused - 1)):
        if min(state) < 0:
            continue
        john_done = state[0] == 0 and state[2] == 0
        gogo_done = state[1] == 0 and state[2] == 0
        if john_done and gogo_done:
            result = 0
        elif john_done:
            result = chosen_after
        elif gogo_done:
            result = -chosen_after
        else:
            result = _final_result(*state)
        if best is None or _rank(result, john_to_move) > _rank(best, john_to_move):
            best = result
    return best


class DoorsGame:
    def determineOutcome(self, doors, trophy):
        """Classify the colours by side, then play the game out over the four counts."""
        left, right = set(doors[:trophy]), set(doors[trophy:])
        return _final_result(len(left - right), len(right - left), len(left & right),
                             COLOURS - len(left | right))
