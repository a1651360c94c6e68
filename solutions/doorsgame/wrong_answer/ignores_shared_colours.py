# Treats the game as two independent races: John needs |L| colours, Gogo |R|, John moves first,
# so John wins iff |L| <= |R|, and only identical colour sets are called a draw. It forgets that a
# colour on both sides helps whoever is behind: the loser can open a shared colour at the last
# moment and force a draw (e.g. "ABCCD", trophy 3, is a draw, not a Gogo win).
# Verdict: wrong answer (fails example 5, and our edge-draw-balanced among others).


class DoorsGame:
    def determineOutcome(self, doors, trophy):
        """Race of set sizes, John winning ties because he starts."""
        left, right = set(doors[:trophy]), set(doors[trophy:])
        if left == right:
            return 0
        if len(left) <= len(right):
            return 2 * len(left) - 1
        return -2 * len(right)
