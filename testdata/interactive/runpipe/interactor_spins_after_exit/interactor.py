# Once the program has ended, loops forever without a verdict: stopped at its CPU limit
# (validation_time), the judge's side.
import sys

sys.stdin.read()
while True:
    pass
