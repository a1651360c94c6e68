# The counting idea with colours kept in flag arrays of size 16, but indexed from 1
# (ord(c) - 64, so 'A' is 1): colour 'P' lands on index 16, one past the end. Correct on rows
# without 'P'; example 3 ("ABAPDCAA") raises IndexError.
# Verdict: runtime error.


class DoorsGame:
    def determineOutcome(self, doors, trophy):
        """Flag each colour per side, then compare needs with the opponent's own colours."""
        on_left = [False] * 16
        on_right = [False] * 16
        for i in range(len(doors)):
            colour = ord(doors[i]) - 64
            if i < trophy:
                on_left[colour] = True
            else:
                on_right[colour] = True
        john = gogo = john_only = gogo_only = 0
        for colour in range(16):
            john += on_left[colour]
            gogo += on_right[colour]
            john_only += on_left[colour] and not on_right[colour]
            gogo_only += on_right[colour] and not on_left[colour]
        if john <= gogo_only:
            return 2 * john - 1
        if gogo < john_only:
            return -2 * gogo
        return 0
