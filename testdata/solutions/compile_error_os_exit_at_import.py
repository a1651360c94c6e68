# expect: CE
# Ends the process with os._exit(0) while being loaded: never AC.
import os

os._exit(0)


class Adder:
    def add(self, values, factor):
        return sum(values) * factor
