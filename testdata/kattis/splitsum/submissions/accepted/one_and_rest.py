n = int(input())
print(1, n - 1)
