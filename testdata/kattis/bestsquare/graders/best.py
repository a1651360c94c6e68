"""The package's grader (legacy Kattis format): reads one "VERDICT SCORE" line per sub-result of a
test group and prints the group's: the best-scoring sub-result's verdict and score (the first of
equal ones). Its one flag names the rule: `best` (the only one it knows)."""

import sys

if sys.argv[1:] != ["best"]:
    sys.exit(f"best.py: expected the one flag 'best', got {sys.argv[1:]}")
results = [line.split() for line in sys.stdin if line.strip()]
best = max(results, key=lambda result: float(result[1]))  # max keeps the first of equal scores
print(best[0], float(best[1]))
