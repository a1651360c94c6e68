# expect: TLE
# Guesses right, then loops forever: an accepted interaction still needs the program to end.
low, high = 1, 1000
while True:
    guess = (low + high) // 2
    print(guess, flush=True)
    reply = input()
    if reply == "correct":
        break
    low, high = (guess + 1, high) if reply == "higher" else (low, guess - 1)
while True:
    pass
