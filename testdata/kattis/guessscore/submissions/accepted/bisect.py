# Bisection: at most 7 guesses for 1 to 100, so 10 points on each of the three secret tests (30).
import sys

bounds = [1, 100]
while bounds[0] <= bounds[1]:
    middle = sum(bounds) // 2
    sys.stdout.write(f"{middle}\n")
    sys.stdout.flush()
    answer = sys.stdin.readline().strip()
    if answer == "correct":
        break
    bounds[answer != "higher"] = middle + 1 if answer == "higher" else middle - 1
