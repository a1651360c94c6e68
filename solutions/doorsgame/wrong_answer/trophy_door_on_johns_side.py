# The counting idea with the rooms miscounted: the door just right of the trophy room (door
# `trophy`) is put on John's side, as if he had to walk through the trophy room to reach it.
# Every split is shifted by one door, e.g. "ABCD" with trophy 2 gives John A, B, C to open.
# Verdict: wrong answer (fails example 0, and our edge-two-doors-distinct among others).


class DoorsGame:
    def determineOutcome(self, doors, trophy):
        """Own-versus-exclusive colour counts, with the split one door too far right."""
        john = set()
        gogo = set()
        for door, colour in enumerate(doors):
            if door <= trophy:
                john.add(colour)
            else:
                gogo.add(colour)
        if len(john) <= len(gogo - john):
            return 2 * len(john) - 1
        if len(gogo) < len(john - gogo):
            return -2 * len(gogo)
        return 0
