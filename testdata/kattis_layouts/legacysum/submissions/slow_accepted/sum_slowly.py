# A folder the format does not name (problemtools reads none but its own): noted, not graded.
a, b = map(int, input().split())
print(a + b)
