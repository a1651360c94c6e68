# Reads the numbers as integers after truncating them: wrong on 0.5 0.25.
a, b = (int(float(w)) for w in input().split())
print(a + b)
