#!/usr/bin/env pypy3
# expect: WA
# A sum masked to 32 bits and read back as signed: 2147483647 + 1 gives -2147483648.
import sys

numbers = list(map(int, sys.stdin.read().split()))
for i in range(numbers[0]):
    total = (numbers[1 + 2 * i] + numbers[2 + 2 * i]) & 0xFFFFFFFF
    print(total - (1 << 32) if total >= 1 << 31 else total)
