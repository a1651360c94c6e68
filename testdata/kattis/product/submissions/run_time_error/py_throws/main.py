from check import product
from kattio import ints

a, b = ints()
print(product(a, b))
