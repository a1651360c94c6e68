# Bisection: at most 7 guesses for 1 to 100, so 10 points on each of the three secret tests (30).
low, high = 1, 100
while True:
    guess = (low + high) // 2
    print(guess, flush=True)
    reply = input()
    if reply == "correct":
        break
    low, high = (guess + 1, high) if reply == "higher" else (low, guess - 1)
