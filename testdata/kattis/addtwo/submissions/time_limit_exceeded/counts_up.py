# Counts up to a + b one by one.
a, b = map(float, input().split())
total = 0
while total < a + b or total < 10 ** 9:
    total += 1
print(total)
