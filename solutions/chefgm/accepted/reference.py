# Reference solution: every pile is a Blue-Red Hackenbush stalk (even numbers are Chef's "EVEN"
# edges, odd numbers the opponent's), so a game is the sum of its stalk values. A stalk's value is
# a dyadic rational with at most 44 binary places, kept exact as an integer scaled by 2**45.
# Reads every token at once; O(total numbers * log) per file: accepted.
import sys

SCALE_BITS = 45  # a stalk has at most 45 edges, so its smallest weight is 2**-44


def stalk_value(stalk):
    """Value of one sorted, duplicate-free pile, in units of 2**-SCALE_BITS: edges up to the first
    parity change are worth 1 each, every later edge half the one below it."""
    value, weight, changed = 0, 1 << SCALE_BITS, False
    for number in stalk:
        changed = changed or number % 2 != stalk[0] % 2
        if changed:
            weight >>= 1
        value += weight if number % 2 == 0 else -weight
    return value


def main():
    words = sys.stdin.buffer.read().split()
    position = 1
    answers = []
    for _ in range(int(words[0])):
        piles = int(words[position])
        position += 1
        total = 0
        for _ in range(piles):
            count = int(words[position])
            total += stalk_value(sorted({int(w) for w in words[position + 1:position + 1 + count]}))
            position += 1 + count
        answers.append("EVEN" if total > 0 else "ODD" if total < 0 else "DON'T PLAY")
    sys.stdout.write("\n".join(answers) + "\n")


main()
