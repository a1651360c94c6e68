"""The package's entry point: it forks the submission's code into a child and talks to it through two
pipes (the child never sees the input); a child that fails makes the program fail."""
import os
import sys


def serve(reader, writer):
    from solution import add

    for line in reader:
        a, b = map(int, line.split())
        writer.write(f"{add(a, b)}\n")
        writer.flush()


to_child_r, to_child_w = os.pipe()
from_child_r, from_child_w = os.pipe()
pid = os.fork()
if pid == 0:
    os.close(to_child_w)
    os.close(from_child_r)
    serve(os.fdopen(to_child_r), os.fdopen(from_child_w, "w"))
    sys.exit(0)  # (the child ends as a script does: the parent's end is the program's)
os.close(to_child_r)
os.close(from_child_w)
words = sys.stdin.read().split()
to_child, from_child = os.fdopen(to_child_w, "w"), os.fdopen(from_child_r)
for i in range(int(words[0])):
    to_child.write(f"{words[1 + 2 * i]} {words[2 + 2 * i]}\n")
    to_child.flush()
    print(from_child.readline().strip())
to_child.close()
sys.exit(0 if os.waitpid(pid, 0)[1] == 0 else 1)
