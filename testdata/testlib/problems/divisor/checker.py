"""A checker in the testlib convention, written for the judge's tests (no testlib.h):

    checker.py input_file output_file answer_file

exit 0 accepted, 1 wrong answer, 2 presentation error, 3 the checker's own failure, the message on
standard error as testlib words it. Any proper divisor of n is right; -1 only when n is prime (the
answer file holds -1 or one proper divisor).
"""
import sys


def verdict(code, message):
    print(message, file=sys.stderr)
    sys.exit(code)


n = int(open(sys.argv[1]).read())
words = open(sys.argv[2], "rb").read().split()
answer = int(open(sys.argv[3]).read())
if answer != -1 and not (1 < answer < n and n % answer == 0):
    verdict(3, f"FAIL the answer file's {answer} is not a proper divisor of {n}")
if len(words) != 1 or not words[0].lstrip(b"-").isdigit():
    verdict(2, f"wrong output format expected one integer, found {len(words)} tokens")
found = int(words[0])
if found == -1:
    verdict(0, "ok n is prime") if answer == -1 else verdict(1, f"wrong answer {n} is not prime: {answer} divides it")
if 1 < found < n and n % found == 0:
    verdict(0, f"ok {found} divides {n}")
verdict(1, f"wrong answer {found} is not a proper divisor of {n}")
