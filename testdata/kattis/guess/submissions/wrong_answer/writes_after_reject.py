# expect: WA
# Writes far more guesses than the pipe holds without reading a reply: the interactor rejects after
# ten, while the program is still writing; whatever it writes after that verdict changes nothing.
import sys

try:
    for _ in range(100_000):
        sys.stdout.write("1\n")
    sys.stdout.flush()
except BrokenPipeError:  # (it is normally stopped before its writes fail)
    sys.stdout = None
