# expect: TLE
# Writes its guess into a buffer it never flushes, then waits for a reply that cannot come:
# both sides wait, and the program is stopped by the idle rule.
import sys

sys.stdout.write("500\n")
sys.stdin.readline()
