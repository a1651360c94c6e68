# Trusts the input order (both samples list every pile in increasing order): the stalk is
# read as given, skipping a number equal to its predecessor. An unsorted pile puts the
# edges in the wrong order, e.g. [4, 3] is valued +1 - 1/2 instead of -1 + 1/2:
# wrong answer on edge-unsorted-pair.


class ChefGame:
    def choose(self, piles):
        scale = 1 << 50
        total = 0
        for pile in piles:
            weight, previous, first_parity = scale, None, None
            for number in pile:
                if number == previous:
                    continue
                if first_parity is None:
                    first_parity = number % 2
                elif number % 2 != first_parity or weight < scale:
                    weight //= 2
                total += weight if number % 2 == 0 else -weight
                previous = number
        if total == 0:
            return "DON'T PLAY"
        return "EVEN" if total > 0 else "ODD"
