# squares in 32-bit arithmetic: right for the small group only
n = int(input())
print((n * n) % 2**31)
