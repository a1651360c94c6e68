"""n, then n numbers in [1, {{cap}}]."""
import sys

lines = sys.stdin.read().split("\n")
n = int(lines[0])
numbers = [int(word) for word in lines[1].split()]
ok = len(numbers) == n and all(1 <= x <= {{cap}} for x in numbers) and lines[2:] == [""]
sys.exit(42 if ok else 43)
