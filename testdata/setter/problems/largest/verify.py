"""Independent check for Largest: sort and take the last element."""


def solve(values):
    return sorted(values)[-1]


def random_input(rng):
    return {"values": [rng.randint(0, 100) for _ in range(rng.randint(1, 10))]}
