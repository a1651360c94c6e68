# expect: AC
import sys

low, high = 1, 1000
while True:
    guess = (low + high) // 2
    print(guess, flush=True)
    reply = sys.stdin.readline().strip()
    if reply == "correct":
        break
    if reply == "higher":
        low = guess + 1
    else:
        high = guess - 1
