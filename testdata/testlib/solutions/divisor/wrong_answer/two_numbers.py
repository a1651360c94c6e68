# Writes a divisor and its cofactor: two integers where one is expected (the checker's presentation error).
n = int(input())
d = next((d for d in range(2, 10**6 + 1) if n % d == 0 and d < n), None)
print(f"{d} {n // d}" if d else -1)
