# Counts up from 1: too many guesses for a large secret.
guess = 1
while True:
    print(guess, flush=True)
    if input() == "correct":
        break
    guess += 1
