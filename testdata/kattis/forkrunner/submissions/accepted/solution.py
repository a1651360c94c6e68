# The whole submission: main.py, the package's, calls this in the child it forked.
def add(a, b):
    return a + b
