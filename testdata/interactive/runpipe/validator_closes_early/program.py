# expect: AC
# Greets, finds its input at its end (the interactor closed it), says goodbye and ends normally.
import sys

print("hello", flush=True)
assert sys.stdin.readline() == ""
print("bye", flush=True)
