# One file; kattio.py comes from the package's include/python3/.
from kattio import ints

a, b = ints()
print(a * b)
