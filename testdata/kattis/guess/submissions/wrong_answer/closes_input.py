# expect: WA
# Closes its standard input, so it can read no reply, and guesses 1 again and again: the interactor's
# replies find no reader (or fill the pipe) and it rejects; the program is stopped while it waits.
import os
import sys
import time

os.close(0)
for _ in range(11):
    try:
        print(1, flush=True)
    except BrokenPipeError:  # the interactor has already given up
        break
time.sleep(60)
