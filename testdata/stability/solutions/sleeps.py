# expect: TLE
# Uses no CPU at all: only the idle-time limit stops it.
import time


class Stability:
    def run(self, n):
        time.sleep(60)
