# Looks for a split one candidate at a time.
n = int(input())
a = n - 1
while a > 1 and a * a > n:
    a -= 1
print(a, n - a)
