"""The interactor's rules, a module beside it: how many guesses a game allows, and the answer."""

GUESSES = 7
LOW, HIGH = 1, 100


def answer(secret: int, guess: int) -> str:
    return "correct" if guess == secret else "lower" if guess > secret else "higher"
