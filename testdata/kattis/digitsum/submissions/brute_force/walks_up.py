# correct, but counts up to n before summing its digits: far too slow for the large group (each step
# writes the number out, so that no JIT makes the walk cheap: PyPy 3 runs a package's Python)
n = int(input())
x = 0
while x != n:
    x = int(str(x + 1))
print(sum(int(digit) for digit in str(x)))
