# Reads the program's greeting, closes its output (the program's input) at once, then reads to the
# end of the program's output and accepts if the program said goodbye.
import os
import sys

greeting = sys.stdin.readline()
os.close(1)  # the program reads the end of its input (sys.stdout.close() would leave fd 1 open)
sys.stdout = None
rest = sys.stdin.read()
sys.exit(42 if greeting == "hello\n" and rest == "bye\n" else 43)
