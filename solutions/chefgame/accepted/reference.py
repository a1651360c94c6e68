# Reference solution: every pile is a Blue-Red Hackenbush stalk (even numbers are Chef's
# "EVEN" edges, odd numbers the opponent's), so the whole game is the sum of the stalk values.
# Values are dyadic rationals with at most 44 binary places, kept exact as integers scaled
# by 2**45. O(total numbers * log) per call: accepted.


class ChefGame:
    SCALE_BITS = 45  # a stalk has at most 45 edges, so its smallest weight is 2**-44

    def choose(self, piles):
        total = sum(self._stalk_value(sorted(set(pile))) for pile in piles)
        if total > 0:
            return "EVEN"
        if total < 0:
            return "ODD"
        return "DON'T PLAY"

    def _stalk_value(self, stalk):
        """Value of one sorted, duplicate-free pile, in units of 2**-SCALE_BITS.

        Choosing a number cuts the stalk there, so equal numbers vanish together (hence
        the set) and the order from the bottom is the sorted order. Edges up to the first
        parity change are worth 1 each; every later edge is worth half the one below it.
        """
        value = 0
        weight = 1 << self.SCALE_BITS
        parity_changed = False
        for number in stalk:
            if number % 2 != stalk[0] % 2:
                parity_changed = True
            if parity_changed:
                weight >>= 1
            value += weight if number % 2 == 0 else -weight
        return value
