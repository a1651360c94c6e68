# Asks for 3 GiB, over the package's 256 MiB limit: the allocation fails. A package's format has no
# memory-limit verdict: Kattis counts this a run-time error, and so does the judge.
buffer = bytearray(3 << 30)
a, b = map(float, input().split())
print(a + b)
