# Closes its standard output, then fails half a second later. The interactor sees the end of its input
# when the program ends, as problemtools and BAPCtools show it, so the program's own end comes first:
# RE (before: the interactor saw the end at once and rejected while the program ran: WA).
import os
import sys
import time

os.close(1)
time.sleep(0.5)
sys.exit(1)
