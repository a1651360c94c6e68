# Closes its standard output, then sleeps past the idle limit: the program is stopped before the
# interactor has seen its output end, so TLE (before: WA at once).
import os
import time

os.close(1)
time.sleep(10)
