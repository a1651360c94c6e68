# right on the sample and the small group, too slow for the large one (it wastes n steps first):
# what submissions.yaml says of it, group by group
n = int(input())
for _ in range(n):
    pass
print(sum(int(digit) for digit in str(n)))
