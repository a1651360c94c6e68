"""Writes Roxor's own test files, tests/edge.yaml and tests/random.yaml.

Expected values come from the reference solution; the random cases use a fixed seed, so every run
writes the same files byte for byte. Run: python problems/roxor/generator.py
"""
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
from tcjudge.testgen import reference, write_tests  # noqa: E402
SEED = 216
MAX_PILES = 15
MAX_STONES = 1000

EDGE_CASES = [
    ("edge-two-piles-one-stone", [1, 0],
     "smallest game: the only move puts both stones on the last pile"),
    ("edge-two-piles-even", [1000, 0],
     "two piles, even count: every move is answered by the same move, so it is lost"),
    ("edge-two-piles-max", [999, 1000],
     "two piles, odd count on the first: the only kind of move wins"),
    ("edge-lone-stone-first", [1] + [0] * 14,
     "one stone on pile 0 of 15: splitting it onto pile 1 twice wins"),
    ("edge-lone-stone-before-last", [0] * 13 + [1, 0],
     "one stone next to the last pile: moving it finishes the game"),
    ("edge-odd-last-pile-only", [2, 2, 999],
     "the last pile never moves, so its odd count does not matter: lost"),
    ("edge-four-odd-piles-cancel", [1, 1, 1, 1, 0],
     "lone stones worth 7, 4, 2 and 1 cancel out: lost without any even pile"),
    ("edge-even-source-pile", [2, 0, 0, 1, 0],
     "the winning move takes a stone from a pile with an even count"),
    ("edge-one-stone-onto-last-pile", [1, 0, 1, 0],
     "the winning move sends one of the new stones to the last pile"),
    ("edge-two-winning-pairs", [1, 0, 1, 1, 0, 0],
     "from pile 0 both {1, 4} and {2, 3} win; the smaller j decides"),
    ("edge-same-target-twice", [0, 3, 0, 4, 2, 7],
     "the first winning move puts both new stones on the same pile"),
    ("max-all-1000", [1000] * 15,
     "15 full even piles: the opponent mirrors every move, lost"),
    ("max-all-999", [999] * 15,
     "15 odd piles of 999 stones"),
    ("max-one-odd-pile-first", [999] + [1000] * 14,
     "only pile 0 is odd: both new stones go to pile 1, leaving every counting pile even"),
    ("max-alternating-999-1000", [999, 1000] * 7 + [999],
     "15 piles alternating between odd and even counts"),
]


def valid(piles):
    """The statement's constraint that some pile other than the last holds a stone."""
    return any(piles[:-1])


def random_piles(rng, n, low, high, density=1.0):
    """n piles, each non-empty with the given probability, drawn until the input is valid."""
    while True:
        piles = [rng.randint(low, high) if rng.random() < density else 0 for _ in range(n)]
        if valid(piles):
            return piles


def random_cases(rng, solve):
    """Seeded families: general, sparse, tiny counts, lost positions and maximum size."""
    cases = []
    for index in range(16):
        cases.append((f"random-{index:03d}", random_piles(rng, rng.randint(2, MAX_PILES), 0, MAX_STONES)))
    for index in range(6):
        cases.append((f"sparse-{index:03d}", random_piles(rng, rng.randint(8, MAX_PILES), 1, MAX_STONES, 0.25)))
    for index in range(6):
        cases.append((f"small-{index:03d}", random_piles(rng, rng.randint(2, MAX_PILES), 0, 3)))
    for index in range(6):
        n = rng.randint(3, MAX_PILES)
        piles = random_piles(rng, n, 0, MAX_STONES)
        while solve(tuple(piles)):
            piles = random_piles(rng, n, 0, MAX_STONES)
        cases.append((f"lost-{index:03d}", piles))
    for index in range(4):
        cases.append((f"max-random-{index:03d}", random_piles(rng, MAX_PILES, 900, MAX_STONES)))
    return cases


def main():
    solve = reference(HERE)
    edge = [(name, {"piles": piles}, note) for name, piles, note in EDGE_CASES]
    write_tests(HERE / "tests" / "edge.yaml", edge, solve)
    random_ = [(name, {"piles": piles}) for name, piles in random_cases(random.Random(SEED), solve)]
    write_tests(HERE / "tests" / "random.yaml", random_, solve)


if __name__ == "__main__":
    main()
