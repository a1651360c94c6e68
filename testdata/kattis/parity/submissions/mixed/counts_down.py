# @expected_results@:  correct, timelimit
# right, but counts down two at a time: too slow for large numbers
n = abs(int(input()))
while n > 1:
    n -= 2
print("odd" if n else "even")
