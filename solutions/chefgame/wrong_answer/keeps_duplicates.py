# Sorts every pile but forgets that choosing a number also removes its copies, so a repeated
# number counts as several Hackenbush edges. {3,4,4} becomes -1 + 1/2 + 1/4 instead of
# -1 + 1/2: wrong answer on edge-repeats-vanish-together.
from fractions import Fraction


class ChefGame:
    def choose(self, piles):
        total = Fraction(0)
        for pile in piles:
            stalk = sorted(pile)
            weight, changed = Fraction(1), False
            for number in stalk:
                changed = changed or number % 2 != stalk[0] % 2
                if changed:
                    weight /= 2
                total += weight if number % 2 == 0 else -weight
        return "EVEN" if total > 0 else ("ODD" if total < 0 else "DON'T PLAY")
