# expect: TLE
# Output that never ends: bounded by the CPU limit like any other work.
import sys

LINE = "y" * 4095 + "\n"


class Stability:
    def run(self, n):
        while True:
            sys.stdout.write(LINE)
