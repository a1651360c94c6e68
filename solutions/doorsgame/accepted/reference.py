# Counting insight. John must open every colour left of the trophy (set L), Gogo every colour right
# of it (set R). Opening a colour the opponent also needs only helps him, so each player first opens
# his own exclusive colours, and a loser never opens a shared one; colours used nowhere only stall.
# John, moving first, finishes first if |L| <= |R \ L| and wins on his |L|-th move (2|L| - 1 colours);
# Gogo finishes first if |R| < |L \ R| and wins on his |R|-th move (2|R| colours); otherwise whoever
# is about to lose opens a shared colour at the last moment and the game is drawn.
# Verdict: accepted (O(N) per test).


class DoorsGame:
    def determineOutcome(self, doors, trophy):
        """Compare each side's colour count with the other side's exclusive colours."""
        john_needs = set(doors[:trophy])
        gogo_needs = set(doors[trophy:])
        if len(john_needs) <= len(gogo_needs - john_needs):
            return 2 * len(john_needs) - 1
        if len(gogo_needs) < len(john_needs - gogo_needs):
            return -2 * len(gogo_needs)
        return 0
