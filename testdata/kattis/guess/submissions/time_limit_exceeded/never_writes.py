# expect: TLE
# Waits for a reply without ever guessing: the interactor waits for a guess, the program for a reply,
# and the program is stopped by the idle rule.
import sys

sys.stdin.readline()
