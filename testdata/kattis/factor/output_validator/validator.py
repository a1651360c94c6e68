"""Accepts a proper divisor of the test's number (any of them, not only the answer file's)."""

import sys

n = int(open(sys.argv[1]).read())
words = sys.stdin.read().split()
feedback = sys.argv[3]
if len(words) != 1 or not words[0].isdigit():
    open(feedback + "judgemessage.txt", "w").write("expected one number")
    sys.exit(43)
d = int(words[0])
if not (1 < d < n and n % d == 0):
    open(feedback + "judgemessage.txt", "w").write(f"{d} is not a proper divisor of {n}")
    sys.exit(43)
sys.exit(42)
