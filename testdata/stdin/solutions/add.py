# Reads every pair and prints its sum: accepted on the Add fixture.
t = int(input())
for _ in range(t):
    a, b = map(int, input().split())
    print(a + b)
