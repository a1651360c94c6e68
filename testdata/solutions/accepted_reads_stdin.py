# expect: AC
# Reads standard input, which is empty: the read returns at once instead of blocking.
import sys


class Adder:
    def add(self, values, factor):
        assert sys.stdin.read() == ""
        return sum(values) * factor
