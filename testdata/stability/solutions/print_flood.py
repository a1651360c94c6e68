# expect: AC
# Prints megabytes for half of its CPU budget, then answers: printing costs only its own CPU.
import sys
import time

LINE = "x" * 4095 + "\n"


class Stability:
    def run(self, n):
        write = sys.stdout.write
        while time.process_time() < 0.15:
            for _ in range(64):
                write(LINE)
        return 2 * n + 1
