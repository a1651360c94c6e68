# forgets the last digit
print(sum(int(digit) for digit in input().strip()[:-1]))
