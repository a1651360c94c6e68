# expect: AC
# Prints megabytes to stdout and stderr before answering: output is captured up to a cap and dropped.
import sys


class Adder:
    def add(self, values, factor):
        line = "x" * 1023 + "\n"
        for _ in range(4096):
            sys.stdout.write(line)
            sys.stderr.write(line)
        return sum(values) * factor
