# Sorts and deduplicates each pile with a counting table indexed by the numbers themselves,
# then sums exact stalk values. Fine while numbers are small, but a number near 2**31 asks
# for a list of about 2**31 entries (16 GiB): memory limit exceeded on edge-max-value-odd.


class ChefGame:
    def choose(self, piles):
        total = 0
        for pile in piles:
            total += self.stalk_value(self.distinct_sorted(pile))
        return "EVEN" if total > 0 else "ODD" if total < 0 else "DON'T PLAY"

    def distinct_sorted(self, pile):
        if not pile:
            return []
        present = [False] * (max(pile) + 1)
        for number in pile:
            present[number] = True
        return [number for number, seen in enumerate(present) if seen]

    def stalk_value(self, stalk):
        """Exact value times 2**45: +-2**45 per edge until the parity changes, then halving."""
        value, weight, switched = 0, 1 << 45, False
        for number in stalk:
            switched = switched or number % 2 != stalk[0] % 2
            if switched:
                weight >>= 1
            value += weight if number % 2 == 0 else -weight
        return value
