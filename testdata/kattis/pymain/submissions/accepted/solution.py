# The whole submission: main.py, the package's, reads the input and calls this.
def add(a, b):
    return a + b
