# Stalk values in doubles, compared with zero through the usual epsilon 1e-9. A single
# stalk can be worth only 2**-44 (about 5.7e-14), which this treats as zero:
# wrong answer on edge-tiny-positive (answers DON'T PLAY instead of EVEN).

EPS = 1e-9


class ChefGame:
    def choose(self, piles):
        total = sum(self.value(sorted(set(pile))) for pile in piles)
        if abs(total) < EPS:
            return "DON'T PLAY"
        return "EVEN" if total > 0 else "ODD"

    def value(self, stalk):
        result, i = 0.0, 0
        while i < len(stalk) and stalk[i] % 2 == stalk[0] % 2:
            result += 1 if stalk[i] % 2 == 0 else -1
            i += 1
        half = 0.5
        for number in stalk[i:]:
            result += half if number % 2 == 0 else -half
            half /= 2
        return result
