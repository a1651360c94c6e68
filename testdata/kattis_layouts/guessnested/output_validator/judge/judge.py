"""The interactor: reads the secret from the input file, answers each guess on standard output."""
import sys

from rules import GUESSES, HIGH, LOW, answer


def finish(status: int, message: str) -> None:
    with open(sys.argv[3] + "judgemessage.txt", "w") as feedback:
        feedback.write(message + "\n")
    sys.exit(status)


secret = int(open(sys.argv[1]).read())
for count in range(1, GUESSES + 1):
    line = sys.stdin.readline()
    try:
        guess = int(line)
    except ValueError:
        finish(43, f"guess {count}: not a number: {line.strip()!r}")
    if not LOW <= guess <= HIGH:
        finish(43, f"guess {count}: {guess} is out of range")
    said = answer(secret, guess)
    print(said, flush=True)
    if said == "correct":
        finish(42, f"found in {count}")
finish(43, f"not found in {GUESSES} guesses")
