# expect: TLE
# Asks a question and waits for the answer that never comes: both sides wait, and the program is
# stopped by the idle rule (its own end comes before the interactor's later rejection).
import sys

print("question", flush=True)
sys.stdin.readline()
