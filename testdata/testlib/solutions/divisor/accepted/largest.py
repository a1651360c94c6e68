# The largest proper divisor (n over the smallest prime factor): another right answer than the file's.
n = int(input())
d = 2
while d * d <= n:
    if n % d == 0:
        print(n // d)
        break
    d += 1
else:
    print(-1)
