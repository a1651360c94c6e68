# Stalk values in floating point: each pile's value (run of +-1, then +-1/2, +-1/4, ...) is
# exact as a double, but the running total over 100 piles needs up to 13 integer bits plus
# 44 fraction bits, more than a double's 53. A 2**-44 pile added to a total near 2205 is
# rounded away (or survives when its partner was lost): wrong answer on the max-float-* tests.


class ChefGame:
    def choose(self, piles):
        total = 0.0
        for pile in piles:
            stalk = sorted(set(pile))
            weight, broken = 1.0, False
            for number in stalk:
                if number % 2 != stalk[0] % 2:
                    broken = True
                if broken:
                    weight /= 2
                total += weight if number % 2 == 0 else -weight
        if total > 0:
            return "EVEN"
        if total < 0:
            return "ODD"
        return "DON'T PLAY"
