# The entry file: main.py (the format's default entry point for Python 3).
from arith import product
from kattio import ints

a, b = ints()
print(product(a, b))
