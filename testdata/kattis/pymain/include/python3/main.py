"""The package's entry point: reads the pairs and prints what the submission's add() makes of each."""
import sys

from solution import add

words = sys.stdin.read().split()
count = int(words[0])
print("\n".join(str(add(int(words[1 + 2 * i]), int(words[2 + 2 * i]))) for i in range(count)))
