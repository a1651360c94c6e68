# The interactor: the secret (1 to 100) is the input file's number. A right guess within 7 tries
# (what bisection needs) scores 10, a later one 3; no right guess in 100 tries is rejected.
import sys

secret = int(open(sys.argv[1]).read())
feedback = sys.argv[3]
for guess_number in range(1, 101):
    line = sys.stdin.readline()
    if not line:
        break
    guess = int(line)
    if guess == secret:
        print("correct", flush=True)
        with open(feedback + "score.txt", "w") as handle:
            handle.write("10\n" if guess_number <= 7 else "3\n")
        sys.exit(42)
    if guess_number == 100:
        break
    print("higher" if guess < secret else "lower", flush=True)
with open(feedback + "judgemessage.txt", "w") as handle:
    handle.write(f"no right guess in {guess_number} tries")
sys.exit(43)
