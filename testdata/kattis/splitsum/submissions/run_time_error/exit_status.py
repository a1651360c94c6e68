# Prints a correct split, then exits with status 3: a run-time error whatever it printed.
import sys
n = int(input())
print(1, n - 1)
sys.exit(3)
