"""Output validator: the mean of the two numbers, within checks.TOLERANCE (a helper module beside it)."""
import sys

from checks import close

_, answer, feedback = sys.argv[1:4]
expected = float(open(answer).read())
words = sys.stdin.read().split()
try:
    got = float(words[0]) if len(words) == 1 else None
except ValueError:
    got = None
if got is None or not close(expected, got):
    with open(feedback + "judgemessage.txt", "w") as message:
        message.write(f"expected {expected}, got {' '.join(words)[:50]}")
    sys.exit(43)
sys.exit(42)
