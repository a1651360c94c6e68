#!/usr/bin/env pypy3
# expect: RE
# An uncaught exception: exit status 1.
import sys

numbers = list(map(int, sys.stdin.read().split()))
print(numbers[len(numbers) + 4])
