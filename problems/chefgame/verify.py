"""Independent check of ChefGame: game values from the definition, not from the stalk formula.

Every pile is evaluated as the partizan game { Left options | Right options } where Left (the
EVEN player) may choose an even number and Right an odd one; a position of a pile is "every
original number below some threshold", so it is memoised by that threshold. The value of a
position is the simplest number strictly between its best Left and best Right option (exact
Fractions); the game is the sum of the piles, and Chef, moving first, wins as EVEN iff the sum
is positive, as ODD iff it is negative, and not at all when it is zero.

Small inputs are additionally played out move by move (exhaustive memoised search over the raw
piles, no theory at all) and must give the same answer.
"""
from fractions import Fraction
from functools import lru_cache
from math import floor, ceil, prod
import random

EXHAUSTIVE_STATE_LIMIT = 5000  # play out the game itself when it has at most this many states
HIGH = 2 ** 31


def solve(piles):
    total = sum(pile_value(tuple(pile)) for pile in piles)
    answer = "EVEN" if total > 0 else "ODD" if total < 0 else "DON'T PLAY"
    if prod(len(set(pile)) + 1 for pile in piles) <= EXHAUSTIVE_STATE_LIMIT:
        searched = exhaustive_answer(tuple(tuple(pile) for pile in piles))
        assert searched == answer, (piles, answer, searched)
    return answer


def pile_value(pile):
    """Game value of one pile, from { L | R } recursion over its positions."""

    @lru_cache(maxsize=None)
    def value_below(threshold):
        """Value of the position holding the pile's numbers smaller than threshold."""
        left = [value_below(c) for c in set(pile) if c < threshold and c % 2 == 0]
        right = [value_below(c) for c in set(pile) if c < threshold and c % 2 == 1]
        return simplest_between(max(left, default=None), min(right, default=None))

    return value_below(float("inf"))


def simplest_between(low, high):
    """The simplest number x with low < x < high (None = no bound), as in { low | high }."""
    assert low is None or high is None or low < high, "Hackenbush options must be ordered"
    if (low is None or low < 0) and (high is None or high > 0):
        return Fraction(0)
    if high is None or (low is not None and low >= 0):
        candidate = floor(low) + 1  # smallest integer above low, nearest to zero
        if high is None or candidate < high:
            return Fraction(candidate)
    else:
        candidate = ceil(high) - 1  # largest integer below high, nearest to zero
        if low is None or candidate > low:
            return Fraction(candidate)
    denominator = 2
    while True:  # no integer fits: the dyadic with the smallest denominator does
        numerator = floor(low * denominator) + 1
        if Fraction(numerator, denominator) < high:
            return Fraction(numerator, denominator)
        denominator *= 2


def exhaustive_answer(piles):
    """Play the game literally: EVEN (resp. ODD) if Chef wins moving first with that parity."""

    @lru_cache(maxsize=None)
    def mover_wins(state, parity):
        for index, pile in enumerate(state):
            for chosen in set(pile):
                if chosen % 2 != parity:
                    continue
                rest = tuple(x for x in pile if x < chosen)
                after = state[:index] + (rest,) + state[index + 1:]
                if not mover_wins(after, 1 - parity):
                    return True
        return False

    even_wins, odd_wins = mover_wins(piles, 0), mover_wins(piles, 1)
    assert not (even_wins and odd_wins), "a number game cannot be won by both first movers"
    return "EVEN" if even_wins else "ODD" if odd_wins else "DON'T PLAY"


def random_input(rng):
    """A few short piles, unsorted, often with repeats, small numbers or numbers near 2**31."""
    pools = [range(0, 10), range(0, 40), range(HIGH - 8, HIGH), [0, 1, HIGH - 2, HIGH - 1]]
    piles = []
    for _ in range(rng.randint(1, 4)):
        pool = rng.choice(pools)
        piles.append(tuple(rng.choice(pool) for _ in range(rng.randint(0, 6))))
    return {"piles": tuple(piles)}
