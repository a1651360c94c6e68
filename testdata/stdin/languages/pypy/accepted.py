#!/usr/bin/env pypy3
# expect: AC
# t, then t pairs: each pair's sum on a line of its own.
import sys

numbers = list(map(int, sys.stdin.read().split()))
print("\n".join(str(numbers[1 + 2 * i] + numbers[2 + 2 * i]) for i in range(numbers[0])))
