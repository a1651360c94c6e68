from kattio import ints


def read_pair():
    a, b = ints()
    return a, b
