# Thinks for a long time (its CPU, pinned to the program's) before each reply: 3 rounds of ~0.7 s.
# The program waits meanwhile; neither the CPU time nor the waiting is the program's.
import sys
import time

for round_number in range(3):
    if sys.stdin.readline() != f"{round_number}\n":
        sys.exit(43)
    spent = time.process_time() + 0.7
    while time.process_time() < spent:
        pass
    print(round_number + 1, flush=True)
sys.exit(42)
