n = int(input())
d = 2
while n % d:
    d += 1
print(d)
