# Counts up from 1: 5 guesses for secret/low (10 points), 64 and 99 for the others (3 each): 16.
guess = 1
while True:
    print(guess, flush=True)
    if input() == "correct":
        break
    guess += 1
