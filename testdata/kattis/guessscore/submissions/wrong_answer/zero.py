# Guesses 0 again and again: never right, rejected after 100 tries (it then ends on its own at the
# end of its input).
import sys

while True:
    print(0, flush=True)
    if not sys.stdin.readline():
        break
