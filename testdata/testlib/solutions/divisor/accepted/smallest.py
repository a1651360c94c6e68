# The smallest divisor above 1 by trial division up to the square root; -1 for a prime.
n = int(input())
d = 2
while d * d <= n:
    if n % d == 0:
        print(d)
        break
    d += 1
else:
    print(-1)
