"""Output validator (Kattis protocol): accepts any two positive integers adding up to n."""
import sys


def main():
    input_file, _answer_file, feedback_dir = sys.argv[1:4]
    with open(input_file) as handle:
        n = int(handle.read())
    words = sys.stdin.read().split()
    if len(words) != 2 or not all(word.isdigit() for word in words):
        reject(feedback_dir, f"expected two positive integers, got {len(words)} words")
    a, b = map(int, words)
    if a < 1 or b < 1:
        reject(feedback_dir, f"{a} and {b} are not both positive")
    if a + b != n:
        reject(feedback_dir, f"{a} + {b} = {a + b}, not {n}")
    sys.exit(42)


def reject(feedback_dir, message):
    with open(feedback_dir + "judgemessage.txt", "w") as handle:
        handle.write(message + "\n")
    sys.exit(43)


main()
