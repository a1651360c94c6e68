# right on the sample and the small group, too slow for the large one (it wastes n steps first, each
# writing a number out, so that no JIT makes them cheap): what submissions.yaml says of it, group by group
n = int(input())
for step in range(n):
    str(step)
print(sum(int(digit) for digit in str(n)))
