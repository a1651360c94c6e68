"""Accepts the answer when it is the number in the answer file (any spacing): exit 42, else 43."""
import sys

expected = open(sys.argv[2]).read().split()
given = sys.stdin.read().split()
if given == expected:
    sys.exit(42)
open(sys.argv[3] + "/judgemessage.txt", "w").write(f"expected {expected}, got {given}")
sys.exit(43)
