# expect: AC
# time limit: 0.25
# Three questions to a slow interactor, each answer awaited: its 2 s of CPU time between them are
# longer than this program's idle limit (2 x 0.25 s + 1 s), yet they are neither its CPU time nor its idle time.
import sys

for round_number in range(3):
    print(round_number, flush=True)
    assert sys.stdin.readline() == f"{round_number + 1}\n"
