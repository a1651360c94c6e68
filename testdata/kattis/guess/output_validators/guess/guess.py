# The guessing game's interactor: the secret is the input file's number; 10 guesses at most.
import sys

secret = int(open(sys.argv[1]).read())
feedback = sys.argv[3]


def reject(message):
    with open(feedback + "judgemessage.txt", "w") as handle:
        handle.write(message)
    sys.exit(43)


def say(word):
    try:
        print(word, flush=True)
    except BrokenPipeError:  # the program has ended: it will read no more
        sys.stdout = None  # nothing left to flush at exit
        reject("the program ended before it had the reply")


for guess_number in range(1, 11):
    line = sys.stdin.readline()
    if not line:
        reject(f"the program stopped after {guess_number - 1} guesses")
    guess = int(line)  # anything but a number is not handled: the interactor fails (IE)
    if guess == secret:
        say("correct")
        sys.exit(42)
    say("higher" if guess < secret else "lower")
reject("more than 10 guesses")
