# expect: WA
# Closes its standard output before its first guess, then waits: the interactor sees the end of its
# input and rejects while the program still runs, so the rejection stands.
import os
import time

os.close(1)
time.sleep(60)
