"""The interactor: says the input's number, then reads one answer, which must be the next number.

Its standard output is a pipe, so print() only buffers; input() flushes it before reading, and the
interpreter flushes again as it exits (a flush that fails there makes Python exit 120). It waits a
little before reading: a program that answers without reading has ended by then."""
import sys
import time


def finish(status: int, message: str) -> None:
    with open(sys.argv[3] + "judgemessage.txt", "w") as feedback:
        feedback.write(message + "\n")
    sys.exit(status)


number = int(open(sys.argv[1]).read())
print(number)
time.sleep(0.3)
try:
    line = input()
except EOFError:
    finish(43, "no answer: the program's output ended")
if line.strip() != str(number + 1):
    finish(43, f"expected {number + 1}, got {line.strip()!r}")
finish(42, "right")
