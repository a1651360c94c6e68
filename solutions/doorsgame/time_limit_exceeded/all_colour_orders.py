# Plays the game out literally without memoisation: every order in which the colours that
# appear on some door can be named is explored (unused colours change nothing, so they are
# skipped). Correct, but the game tree has about k! leaves for k colours: fine for the
# examples (at most 6 colours), hopeless for system test 7, which uses all 16 colours.
# Verdict: time limit exceeded.


class DoorsGame:
    def determineOutcome(self, doors, trophy):
        """Search the whole game from the start, John to move."""
        self.john_needs = set(doors[:trophy])
        self.gogo_needs = set(doors[trophy:])
        return self.play(set(), sorted(self.john_needs | self.gogo_needs), True)

    def preference(self, result, john):
        """Bigger is better for the mover: quick win, then draw, then a slow loss."""
        if not john:
            result = -result
        if result > 0:
            return 1000 - result
        if result < 0:
            return -1000 - result
        return 0

    def play(self, opened, closed, john):
        """Final result when the mover (John if john) chooses among the closed colours."""
        best = None
        for colour in closed:
            now = opened | {colour}
            john_in = self.john_needs <= now
            gogo_in = self.gogo_needs <= now
            if john_in and gogo_in:
                result = 0
            elif john_in:
                result = len(now)
            elif gogo_in:
                result = -len(now)
            else:
                result = self.play(now, [c for c in closed if c != colour], not john)
            if best is None or self.preference(result, john) > self.preference(best, john):
                best = result
        return best
