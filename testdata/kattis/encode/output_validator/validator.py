"""Output validator of a multi-pass problem (Kattis protocol).

Pass 1's input is `encode N`: the program must write a word of 1 to 7 lowercase letters; the
validator accepts and writes `decode WORD` as nextpass.in, the input of pass 2. Pass 2's input is
that line: the program must write N again (the answer file holds N). Messages are appended to
judgemessage.txt, which lasts across the passes.
"""
import sys


def main():
    input_file, answer_file, feedback_dir = sys.argv[1:4]
    with open(input_file) as handle:
        command, argument = handle.read().split()
    with open(answer_file) as handle:
        number = int(handle.read())
    words = sys.stdin.read().split()
    if command == "encode":
        if len(words) != 1 or not (1 <= len(words[0]) <= 7 and words[0].isascii() and words[0].isalpha()
                                   and words[0].islower()):
            reject(feedback_dir, "expected one word of 1 to 7 lowercase letters")
        note(feedback_dir, f"{number} encoded as {words[0]};")
        with open(feedback_dir + "nextpass.in", "w") as handle:
            handle.write(f"decode {words[0]}\n")
        sys.exit(42)
    if command != "decode":
        sys.exit(1)  # a test input this validator does not know: its own fault
    if words != [str(number)]:
        reject(feedback_dir, f"expected {number}, got {' '.join(words)[:40]!r}")
    sys.exit(42)


def note(feedback_dir, message):
    with open(feedback_dir + "judgemessage.txt", "a") as handle:
        handle.write(message + "\n")


def reject(feedback_dir, message):
    note(feedback_dir, message)
    sys.exit(43)


main()
