"""A helper module of format.py: not an input validator of its own."""

LIMIT = 1000


def numbers(line):
    words = line.split()
    if len(words) != 2 or not all(word.lstrip("-").isdigit() for word in words):
        raise ValueError("expected two integers on one line")
    return [int(word) for word in words]
