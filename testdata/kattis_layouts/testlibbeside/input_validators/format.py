"""Input validator: one line of two integers (the helper module rules.py reads them)."""
import sys

from rules import numbers

lines = sys.stdin.read().split("\n")
try:
    if len(lines) != 2 or lines[1] != "":
        raise ValueError("expected exactly one line")
    numbers(lines[0])
except ValueError as err:
    print(err)
    sys.exit(43)
sys.exit(42)
