"""Writes CHEFGM's test files (tests/NN-name.in) bit for bit from fixed seeds, and their answers
(.ans) from the reference solution: `python problems/chefgm/generator.py`.

Sizes go up to the limits (t = 1000 games per file, k = 100 piles, 45 numbers per pile, numbers
below 2**31) while the whole set stays near 2 MB for git.
"""
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from tcjudge.testgen import write_program_tests  # noqa: E402
from verify import format_input  # noqa: E402  (the file layout; verify.py parses it on its own)

HIGH = 2 ** 31
REFERENCE = HERE.parents[1] / "solutions" / HERE.name / "accepted" / "reference.py"


def random_games(rng, t, piles, numbers, pool):
    """t games of rng-drawn sizes (piles and numbers are (low, high) ranges), numbers from pool()."""
    return [[[pool() for _ in range(rng.randint(*numbers))] for _ in range(rng.randint(*piles))]
            for _ in range(t)]


def negated(pile):
    """A pile worth exactly minus the given one: the same sorted shape with every parity flipped
    (the i-th distinct number becomes 2i or 2i + 1)."""
    return [2 * i + 1 - number % 2 for i, number in enumerate(sorted(set(pile)))]


def late_parity_pile(rng, length, change_at):
    """`length` distinct ascending numbers of one parity up to position change_at, then the other."""
    first = rng.randint(0, 1)
    start = rng.randrange(0, HIGH // 2)
    pile = []
    for i in range(length):
        parity = first if i < change_at else rng.randint(0, 1) if i > change_at else 1 - first
        pile.append(2 * (start + i) % (HIGH - 2) + parity)
    return sorted(set(pile)) if rng.random() < 0.5 else rng.sample(pile, len(pile))


def edge_games():
    top, below = HIGH - 1, HIGH - 2
    return [
        [[]], [[], []], [[0]], [[1]], [[2]], [[top]], [[below]], [[0, 1]], [[1, 0]], [[top, below]],
        [[5] * 45], [[4] * 45], [[0] * 45], [[top] * 45], [[3, 4], [4, 5]], [[1, 2, 3]],
        [[3, 4, 4]], [[4, 4, 3]], [[1, 1, 2, 2]], [[2, 1]], [[0], [1]], [[0, 0], [1]], [[], [7]],
        [list(range(45))], [list(range(44, -1, -1))], [list(range(1, 46))], [list(range(top - 44, top + 1))],
        [[0]] * 100, [[1]] * 100, [[0]] * 50 + [[1]] * 50, [[0]] * 51 + [[1]] * 49, [[]] * 100,
        [[0] + [2 * i + 1 for i in range(44)]],  # 1 - 1/2 - 1/4 - ... - 2**-44 = 2**-44 > 0
        [[1] + [2 * i + 2 for i in range(44)]],  # its negative
        [[0] + [2 * i + 1 for i in range(44)], [1]],  # 2**-44 - 1
        [[0] + [2 * i + 1 for i in range(44)], [1] + [2 * i + 2 for i in range(44)]],  # exactly 0
    ]


def cases():
    rng = random.Random("chefgm")
    small = lambda: rng.randrange(0, 20)
    anything = lambda: rng.randrange(0, HIGH)
    high = lambda: rng.randrange(HIGH - 100, HIGH)
    yield "01-small-random", random_games(rng, 1000, (1, 4), (0, 6), small)
    yield "02-single-pile", random_games(rng, 1000, (1, 1), (1, 12), lambda: rng.randrange(0, 50))
    yield "03-edge", edge_games()
    few = []
    for _ in range(300):  # 45 numbers drawn from 1 to 5 values: heavy duplicates
        values = [anything() for _ in range(rng.randint(1, 5))]
        few.append([[rng.choice(values) for _ in range(45)] for _ in range(rng.randint(1, 5))])
    yield "04-duplicates", few
    late = []
    for _ in range(100):
        late.append([late_parity_pile(rng, 45, rng.randint(38, 44)) for _ in range(rng.randint(1, 4))])
    yield "05-late-parity", late
    zero = []
    for _ in range(300):  # piles and their exact negatives, shuffled: every answer is DON'T PLAY
        piles = random_games(rng, 1, (1, 3), (0, 20), anything)[0]
        piles += [negated(pile) for pile in piles]
        rng.shuffle(piles)
        zero.append(piles)
    yield "06-dont-play", zero
    yield "07-high-values", random_games(rng, 50, (1, 8), (30, 45), high)
    unsorted = random_games(rng, 300, (1, 5), (2, 20), anything)
    for game in unsorted:
        for pile in game:
            pile.sort(reverse=rng.random() < 0.5)
    yield "08-sorted-either-way", unsorted
    yield "09-max-piles", [[[anything() for _ in range(45)] for _ in range(100)] for _ in range(3)]
    yield "10-t1000-mixed", random_games(rng, 1000, (1, 6), (0, 12), lambda: rng.choice((small, anything, high))())
    near = []
    for _ in range(200):  # a zero-sum game plus one pile worth +-2**-m: a tiny but decisive total
        piles = random_games(rng, 1, (1, 3), (5, 15), anything)[0]
        piles += [negated(pile) for pile in piles]
        m = rng.randint(30, 44)
        tiny = [0] + [2 * i + 1 for i in range(m)]  # 1 - (1/2 + ... + 2**-m) = 2**-m
        piles.append(negated(tiny) if rng.random() < 0.5 else tiny)
        rng.shuffle(piles)
        near.append(piles)
    yield "11-near-zero", near
    yield "12-max-t-and-k", random_games(rng, 1000, (100, 100), (1, 1), anything)


def main():
    tests = HERE / "tests"
    for stale in list(tests.glob("*.in")) + list(tests.glob("*.ans")):
        stale.unlink()
    write_program_tests(tests, ((name, format_input(games)) for name, games in cases()), REFERENCE)


if __name__ == "__main__":
    main()
