# Sorts every pile but forgets that choosing a number also removes its copies, so a repeated
# number counts as several Hackenbush edges ({3, 4, 4} is valued -1 + 1/2 + 1/4 instead of
# -1 + 1/2): wrong answer on the duplicate-heavy files.
import sys


def main():
    words = sys.stdin.buffer.read().split()
    position = 1
    for _ in range(int(words[0])):
        total = 0
        for _ in range(int(words[position])):
            count = int(words[position + 1])
            stalk = sorted(int(w) for w in words[position + 2:position + 2 + count])
            weight, changed = 1 << 50, False
            for number in stalk:
                changed = changed or number % 2 != stalk[0] % 2
                if changed:
                    weight >>= 1
                total += weight if number % 2 == 0 else -weight
            position += 1 + count
        position += 1
        print("EVEN" if total > 0 else "ODD" if total < 0 else "DON'T PLAY")


main()
