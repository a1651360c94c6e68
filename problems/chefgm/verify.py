"""Independent check of CHEFGM as CodeChef ran it: the input is parsed line by line against the
exact format (so every test file is also validated), and every game is valued from the definition
of the game, not from the stalk formula the reference solution uses.

A position of a pile is "its numbers below some threshold", i.e. a prefix of its sorted distinct
numbers. Left (EVEN) may move to any shorter prefix cut at an even number, Right (ODD) at an odd
one; the value of a prefix is the simplest number between its best Left and best Right option
(problems/chefgame/verify.py's simplest_between, exact Fractions). The game is the sum of the piles:
Chef, moving first, wins as EVEN iff it is positive, as ODD iff negative. Small games are also
played out move by move (chefgame's exhaustive search, no theory at all) and must agree.
"""
import importlib.util
import random
from fractions import Fraction
from functools import lru_cache
from math import prod
from pathlib import Path

MAX_T, MAX_K, MAX_N, HIGH = 1000, 100, 45, 2 ** 31
EXHAUSTIVE_STATE_LIMIT = 2000



@lru_cache(maxsize=None)
def chefgame():
    """problems/chefgame/verify.py (simplest_between, exhaustive_answer), loaded when first needed."""
    path = Path(__file__).parents[1] / "chefgame" / "verify.py"
    if not path.is_file():  # chefgm copied into a project without chefgame
        raise RuntimeError(f"chefgm's verifier uses chefgame's: copy problems/chefgame beside it ({path} is missing)")
    spec = importlib.util.spec_from_file_location("_chefgame_verify", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def solve(data: bytes) -> str:
    """The answer file for an input file (one line per game)."""
    answers = []
    for piles in parse(data):
        total = sum((pile_value(pile) for pile in piles), Fraction(0))
        answer = "EVEN" if total > 0 else "ODD" if total < 0 else "DON'T PLAY"
        if prod(len(set(pile)) + 1 for pile in piles) <= EXHAUSTIVE_STATE_LIMIT:
            assert chefgame().exhaustive_answer(tuple(tuple(p) for p in piles)) == answer, piles
        answers.append(answer)
    return "".join(answer + "\n" for answer in answers)


def parse(data: bytes) -> list[list[list[int]]]:
    """The games of an input file; AssertionError names the line that breaks the format."""
    lines = data.decode("ascii").split("\n")
    assert lines[-1] == "", "the file ends with a newline"
    lines.pop()
    cursor = iter(enumerate(lines, 1))

    def numbers(expected_count=None):
        number, line = next(cursor)
        assert line == line.strip() and "  " not in line, f"line {number}: stray spaces"
        values = [int(word) for word in line.split(" ")]
        assert all(str(v) == w for v, w in zip(values, line.split(" "))), f"line {number}: not plain integers"
        assert expected_count is None or len(values) == expected_count, f"line {number}: {len(values)} numbers"
        return number, values

    number, (t,) = numbers(1)
    assert 1 <= t <= MAX_T, f"line {number}: t = {t}"
    games = []
    for _ in range(t):
        number, (k,) = numbers(1)
        assert 1 <= k <= MAX_K, f"line {number}: k = {k}"
        piles = []
        for _ in range(k):
            number, values = numbers()
            assert values and values[0] == len(values) - 1, f"line {number}: n does not match the count"
            assert 0 <= values[0] <= MAX_N and all(0 <= v < HIGH for v in values[1:]), f"line {number}: out of range"
            piles.append(values[1:])
        games.append(piles)
    assert next(cursor, None) is None, "lines after the last game"
    return games


def pile_value(pile: list[int]) -> Fraction:
    """{ L | R } over the prefixes of the sorted distinct numbers. Cutting the prefix of length i at
    its j-th number leaves the prefix of length j, a Left option when that number is even, a Right
    one when odd; the best of each side is kept as the prefixes grow."""
    stalk = sorted(set(pile))
    values = [Fraction(0)]  # values[i]: the prefix of length i (the empty pile is 0)
    best_left = best_right = None
    for j, number in enumerate(stalk):
        if number % 2 == 0:
            best_left = values[j] if best_left is None else max(best_left, values[j])
        else:
            best_right = values[j] if best_right is None else min(best_right, values[j])
        values.append(chefgame().simplest_between(best_left, best_right))
    return values[-1]


def random_input(rng: random.Random) -> bytes:
    """A file of a few hundred small games (small enough for the exhaustive search to check)."""
    games = []
    for _ in range(rng.randint(100, 300)):
        pool = rng.choice([range(0, 8), range(0, 30), range(HIGH - 6, HIGH)])
        games.append([[rng.choice(pool) for _ in range(rng.randint(0, 5))] for _ in range(rng.randint(1, 3))])
    return format_input(games)


def format_input(games) -> bytes:
    lines = [str(len(games))]
    for piles in games:
        lines.append(str(len(piles)))
        lines += [" ".join(map(str, [len(pile), *pile])) for pile in piles]
    return ("\n".join(lines) + "\n").encode()
