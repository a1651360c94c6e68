# expect: AC
# Spends two thirds of the 0.3 s CPU limit (by its own CPU clock, so on any machine), then answers:
# AC however busy the machine is, since only CPU time counts.
import time


class Stability:
    def run(self, n):
        while time.process_time() < 0.2:
            pass
        return 2 * n + 1
