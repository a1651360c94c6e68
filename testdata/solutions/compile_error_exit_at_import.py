# expect: CE
# Exits with status 0 while being loaded: never AC.
import sys

sys.exit(0)


class Adder:
    def add(self, values, factor):
        return sum(values) * factor
