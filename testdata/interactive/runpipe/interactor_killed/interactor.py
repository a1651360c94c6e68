# Dies of a signal in the middle of the dialogue (a crash of the problem's own code).
import os
import signal
import sys

sys.stdin.readline()
os.kill(os.getpid(), signal.SIGSEGV)
