# expect: TLE
# Sleeps: uses no CPU, so only the idle-time limit stops it.
import time


class Adder:
    def add(self, values, factor):
        time.sleep(60)
