# A folder submission: its solution.py keeps only 32 bits.
def add(a, b):
    return (a + b) & 0xFFFFFFFF
