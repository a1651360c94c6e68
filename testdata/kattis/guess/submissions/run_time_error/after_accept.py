# expect: RE
# Guesses right, then fails: the interactor accepted, but the program did not end normally.
low, high = 1, 1000
while True:
    guess = (low + high) // 2
    print(guess, flush=True)
    reply = input()
    if reply == "correct":
        raise SystemExit(3)
    low, high = (guess + 1, high) if reply == "higher" else (low, guess - 1)
