# one too many for numbers of five digits or more
digits = input().strip()
print(sum(int(digit) for digit in digits) + (len(digits) >= 5))
