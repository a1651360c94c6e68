# Once the program has ended, waits forever without a verdict (and without using its CPU): stopped by
# the wall-clock bound after the program's end.
import sys
import time

sys.stdin.read()
time.sleep(3600)
