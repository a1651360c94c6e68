# expect: TLE
# Ignores every catchable signal and loops: the judge's SIGKILL still ends it.
import signal

for number in range(1, signal.NSIG):
    try:
        signal.signal(number, signal.SIG_IGN)
    except (OSError, ValueError, RuntimeError):
        pass


class Adder:
    def add(self, values, factor):
        while True:
            pass
