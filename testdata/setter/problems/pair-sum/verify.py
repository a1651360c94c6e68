"""Independent check for PairSum: a dictionary of positions seen so far (any right pair will do,
since the checker accepts every pair)."""


def solve(values, target):
    seen = {}
    for j, value in enumerate(values):
        if target - value in seen:
            return [seen[target - value], j]
        seen.setdefault(value, j)
    return []


def random_input(rng):
    return {"values": [rng.randint(-5, 5) for _ in range(rng.randint(2, 8))], "target": rng.randint(-10, 10)}
