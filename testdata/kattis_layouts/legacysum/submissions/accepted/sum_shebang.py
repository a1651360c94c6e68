#!/usr/bin/python2
a, b = map(int, raw_input().split())
print(a + b)
