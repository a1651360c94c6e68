# Correct answers (exact Fraction stalk values, read line by line with input()), but printed
# carelessly: a space before each answer, several between DON'T and PLAY, trailing blanks and a
# blank line at the end. The output is compared token by token, so it is accepted.
from fractions import Fraction


def stalk_value(pile):
    stalk = sorted(set(pile))
    total, weight, changed = Fraction(0), Fraction(1), False
    for number in stalk:
        changed = changed or number % 2 != stalk[0] % 2
        if changed:
            weight /= 2
        total += weight if number % 2 == 0 else -weight
    return total


for _ in range(int(input())):
    total = Fraction(0)
    for _ in range(int(input())):
        count, *numbers = map(int, input().split())
        total += stalk_value(numbers[:count])
    answer = "EVEN" if total > 0 else "ODD" if total < 0 else "DON'T   PLAY"
    print(" " + answer + "  \t")
print()
