#!/usr/bin/env pypy3
# expect: TLE
n = 0
while True:
    n = (n + 1) % 1000003
