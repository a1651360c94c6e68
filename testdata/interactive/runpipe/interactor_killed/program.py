# expect: IE
# Asks, then waits for a reply from an interactor that crashes: the crash is the judge's side.
import sys

print("question", flush=True)
sys.stdin.readline()
