# Says -1 whenever n is odd: wrong on 999962000357.
n = int(input())
print(2 if n % 2 == 0 else -1)
