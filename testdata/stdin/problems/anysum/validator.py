# Kattis-protocol output validator: the answer is any two non-negative numbers that add up to n.
import sys

input_file, answer_file, feedback_dir = sys.argv[1:4]
flags = sys.argv[4:]
n = int(open(input_file).read())
assert flags == ["strict"], flags


def reject(message):
    with open(feedback_dir + "judgemessage.txt", "w") as handle:
        handle.write(message)
    sys.exit(43)


words = sys.stdin.read().split()
if len(words) != 2 or not all(w.isdigit() for w in words):
    reject(f"expected two non-negative numbers, got {len(words)} words")
if int(words[0]) + int(words[1]) != n:
    reject(f"{words[0]} + {words[1]} is not {n}")
sys.exit(42)
