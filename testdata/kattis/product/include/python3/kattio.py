"""Given to every Python submission of this package (include/python3/): reads the input's integers."""
import sys


def ints():
    return [int(word) for word in sys.stdin.read().split()]
