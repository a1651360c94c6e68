# Exhaustive game search: the state is how many of each pile's sorted distinct numbers are
# left (packed into one integer key) plus whose turn it is, memoised in a dict. Correct, but
# the state space is the product of (distinct numbers + 1) over the piles, up to 46**100:
# time limit exceeded on the first large random game.
import sys


class ChefGame:
    def choose(self, piles):
        sys.setrecursionlimit(20000)
        self.stalks = [sorted(set(pile)) for pile in piles if pile]
        self.memo = {}
        start = tuple(len(stalk) for stalk in self.stalks)
        if self.wins(start, 0):
            return "EVEN"
        if self.wins(start, 1):
            return "ODD"
        return "DON'T PLAY"

    def wins(self, heights, parity):
        """Whether the player taking numbers of this parity wins when moving now."""
        key = (heights, parity)
        if key in self.memo:
            return self.memo[key]
        result = False
        for i, height in enumerate(heights):
            stalk = self.stalks[i]
            for cut in range(height):
                if stalk[cut] % 2 == parity:
                    after = heights[:i] + (cut,) + heights[i + 1:]
                    if not self.wins(after, 1 - parity):
                        result = True
                        break
            if result:
                break
        self.memo[key] = result
        return result
