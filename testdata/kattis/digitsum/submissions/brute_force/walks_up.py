# correct, but counts up to n before summing its digits: far too slow for the large group
n = int(input())
x = 0
while x != n:
    x += 1
print(sum(int(digit) for digit in str(x)))
