# expect: TLE
# Closes its standard output before its first guess, then waits. The interactor sees the end of its
# input only when the program ends (as problemtools' runner and BAPCtools' relay hold it), so the
# program is stopped by the idle rule first: TLE, as those tools judge it.
import os
import time

os.close(1)
time.sleep(60)
