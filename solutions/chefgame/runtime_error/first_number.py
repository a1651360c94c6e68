# Correct stalk values with exact integers, but reads the parity of the lowest number
# (stalk[0]) before looking at the pile's length: an empty pile raises IndexError.
# Runtime error on edge-only-empty-pile.


class ChefGame:
    def choose(self, piles):
        total = 0
        for pile in piles:
            stalk = sorted(set(pile))
            base = stalk[0] % 2
            weight = 1 << 46
            for position, number in enumerate(stalk):
                if number % 2 != base or (position and weight < 1 << 46):
                    weight >>= 1
                total += -weight if number % 2 else weight
        return "EVEN" if total > 0 else "ODD" if total < 0 else "DON'T PLAY"
