"""Helper module of validate.py: how close an answer must be."""

TOLERANCE = 1e-6


def close(expected, got):
    return abs(expected - got) <= TOLERANCE * max(1.0, abs(expected))
