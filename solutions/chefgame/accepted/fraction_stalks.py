# Alternative accepted solution: the same Hackenbush-stalk theory, but each pile is
# deduplicated by a scan over its sorted copy and valued with exact fractions.Fraction:
# the first run of one parity counts +-1 per number, then the terms are +-1/2, +-1/4, ...
# Exact arithmetic, so no precision is lost even with 100 stalks of 45 edges: accepted.
from fractions import Fraction


class ChefGame:
    def choose(self, piles):
        total = Fraction(0)
        for pile in piles:
            total += stalk_value(distinct_in_order(pile))
        return "EVEN" if total > 0 else "ODD" if total < 0 else "DON'T PLAY"


def distinct_in_order(pile):
    """The pile's numbers from the smallest up, each once (equal numbers leave together)."""
    stalk = []
    for number in sorted(pile):
        if not stalk or stalk[-1] != number:
            stalk.append(number)
    return stalk


def stalk_value(stalk):
    """Hackenbush value of a stalk whose even numbers are positive edges."""
    signs = [1 if number % 2 == 0 else -1 for number in stalk]
    run = 0
    while run < len(signs) and signs[run] == signs[0]:
        run += 1
    value = Fraction(run * signs[0]) if signs else Fraction(0)
    for place, sign in enumerate(signs[run:], start=1):
        value += Fraction(sign, 2 ** place)
    return value
