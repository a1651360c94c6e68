# The counting idea, but John is only credited with a win when he has strictly fewer colours
# to open than Gogo has of his own: a tie is called a draw. Because John names the first colour
# he finishes first in a tie (e.g. "ABCD", trophy 2: John wins on the third pick).
# Verdict: wrong answer (fails example 0, and our edge-tie-no-shared among others).


class DoorsGame:
    def determineOutcome(self, doors, trophy):
        """Compare each side's needs against the other's exclusive colours, ties as draws."""
        john = set(doors[:trophy])
        gogo = set(doors[trophy:])
        john_only = john - gogo
        gogo_only = gogo - john
        if len(john) < len(gogo_only):
            return 2 * len(john) - 1
        if len(gogo) < len(john_only):
            return -2 * len(gogo)
        return 0
