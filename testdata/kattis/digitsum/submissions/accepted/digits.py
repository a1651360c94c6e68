print(sum(int(digit) for digit in input().strip()))
