"""Writes our own ChefGame tests: tests/edge.yaml, tests/random.yaml and tests/max.yaml.

Run `python problems/chefgame/generator.py`; every file is rebuilt from fixed seeds, so the
output is identical on every run. Expected values come from the reference solution.

A pile is built from a "stalk": a bottom-to-top list of colours, EVEN (+1) or ODD (-1), turned
into strictly increasing numbers of those parities, then scrambled (shuffled, with repeats),
since the order and the multiplicity of numbers in a pile do not change the game.
"""
import math
import random
import sys
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
EVEN, ODD = 1, -1
TOP = 2 ** 31 - 1  # the largest allowed number
MAX_PILES, MAX_PILE_LEN = 100, 45

sys.path[:0] = [str(HERE), str(ROOT)]
from verify import pile_value  # noqa: E402  (only to design cancelling piles, not for answers)

from tcjudge.testgen import reference, write_tests  # noqa: E402


# ---------------------------------------------------------------- building piles

def numbers_for(colours, rng, low=0, high=TOP):
    """Strictly increasing numbers in [low, high] whose parities follow the colours."""
    slots = sorted(rng.sample(range((low + 1) // 2, (high - 1) // 2 + 1), len(colours)))
    return [2 * slot + (0 if colour == EVEN else 1) for slot, colour in zip(slots, colours)]


def scramble(numbers, rng, repeat_chance=0.3):
    """The same pile as a game: shuffled, some numbers repeated, at most 45 numbers."""
    pile = list(numbers)
    for number in numbers:
        if len(pile) < MAX_PILE_LEN and rng.random() < repeat_chance:
            pile.append(number)
    rng.shuffle(pile)
    return pile


def colours_for_value(value):
    """A stalk of at most 45 edges with exactly this (dyadic) Hackenbush value."""
    sign = EVEN if value >= 0 else ODD
    magnitude = abs(Fraction(value))
    whole = math.floor(magnitude)
    if magnitude == whole:
        colours = [sign] * whole
    else:
        places = magnitude.denominator.bit_length() - 1
        colours = [sign] * (whole + 1) + [-sign]
        reached = whole + Fraction(1, 2)
        for place in range(2, places + 1):
            step = Fraction(1, 2 ** place)
            if magnitude > reached:
                colours.append(sign)
                reached += step
            else:
                colours.append(-sign)
                reached -= step
        assert reached == magnitude
    assert len(colours) <= MAX_PILE_LEN
    return colours


def colours_cancelling(total):
    """Stalks (lists of colours) whose values add up to -total."""
    target = -Fraction(total)
    whole = math.floor(target)
    stalks = [colours_for_value(target - whole)] if target != whole else []
    sign = EVEN if whole > 0 else ODD
    left = abs(whole)
    while left:
        stalks.append([sign] * min(left, MAX_PILE_LEN))
        left -= len(stalks[-1])
    return stalks


def random_colours(rng, length, mode):
    if mode == "even":
        return [EVEN] * length
    if mode == "odd":
        return [ODD] * length
    if mode == "alternating":
        first = rng.choice([EVEN, ODD])
        return [first * (-1) ** i for i in range(length)]
    if mode == "long-run":
        first, run = rng.choice([EVEN, ODD]), rng.randint(0, length)
        return [first] * run + [rng.choice([EVEN, ODD]) for _ in range(length - run)]
    return [rng.choice([EVEN, ODD]) for _ in range(length)]


def random_pile(rng, length, values):
    """A random pile of `length` numbers drawn the way `values` says."""
    if values == "small":  # tiny range: many repeats
        return [rng.randint(0, rng.choice([3, 10, 30, 60])) for _ in range(length)]
    if values == "top":  # close to 2**31
        return [TOP - rng.randint(0, 60) for _ in range(length)]
    if values == "mixed":
        return [rng.choice([rng.randint(0, 20), rng.randint(0, TOP), TOP - rng.randint(0, 20)])
                for _ in range(length)]
    if values == "full":
        return [rng.randint(0, TOP) for _ in range(length)]
    distinct = rng.randint(0, length)  # a stalk of chosen colours, padded with repeats
    colours = random_colours(rng, distinct, values)
    numbers = numbers_for(colours, rng)
    return scramble(numbers, rng, repeat_chance=1.0)[:length] if distinct else []


def cancel_game(rng, piles, offset=Fraction(0)):
    """Add piles so the total becomes `offset` (0 = DON'T PLAY), then shuffle pile order."""
    total = sum(pile_value(tuple(pile)) for pile in piles) - offset
    extra = [scramble(numbers_for(colours, rng), rng) for colours in colours_cancelling(total)]
    game = piles + extra
    assert len(game) <= MAX_PILES
    rng.shuffle(game)
    return game


def mirror(pile):
    """The negative of a pile (every number's parity flipped, order kept); needs numbers < 2**30."""
    return [2 * number + (1 - number % 2) for number in pile]


# ---------------------------------------------------------------- test files

def edge_tests():
    """Hand-picked cases: tiny piles first, numbers near 2**31 at the end."""
    tiny_pos = [0] + list(range(1, 88, 2))         # +1 - 1/2 - ... - 1/2**44 = 2**-44
    tiny_neg = [1] + list(range(2, 89, 2))         # exactly the negative of tiny_pos
    tiny_neg_double = [1] + list(range(2, 87, 2))  # -2**-43
    return [
        ("edge-single-zero", [[0]], "0 is even: only EVEN can move"),
        ("edge-single-one", [[1]], "only ODD can move"),
        ("edge-only-empty-pile", [[]], "nobody can move, so Chef loses either way"),
        ("edge-empty-piles", [[], [], []], "three empty piles: no moves at all"),
        ("edge-empty-and-one", [[], [6], []], "empty piles around a single even number"),
        ("edge-repeated-single", [[7, 7, 7, 7]], "four copies of 7 are one move"),
        ("edge-repeats-vanish-together", [[3, 4, 4], [4, 5]],
         "{3,4,4} is the stalk {3,4} (value -1/2) and cancels {4,5}"),
        ("edge-repeats-everywhere", [[4, 4, 3, 3], [5, 4, 5]], "sample 1 with every number doubled"),
        ("edge-unsorted-pair", [[4, 3], [4, 5]], "sample 1 with the first pile given in reverse"),
        ("edge-descending", [[5, 4, 3, 2, 1, 0]], "alternating parities from 0: value 21/32"),
        ("edge-halves-cancel-one", [[2, 3], [2, 3], [3]], "1/2 + 1/2 - 1 = 0"),
        ("edge-half", [[2, 3]], "value 1/2: EVEN wins, ODD loses"),
        ("edge-zero-and-one", [[0], [1]], "one move each: whoever starts runs out first"),
        ("edge-zero-one-same-pile", [[1, 0]], "0 under 1: value 1/2"),
        ("edge-all-even-pile", [[10, 2, 8, 4, 6]], "all even: value 5"),
        ("edge-all-odd-pile", [[9, 1, 7, 3, 5]], "all odd: value -5"),
        ("edge-all-even-vs-all-odd", [[0, 2, 4], [1, 3, 5]], "3 - 3 = 0"),
        ("edge-runs-cancel", [[0, 2, 4, 6], [1, 3, 5], [7]], "4 - 3 - 1 = 0"),
        ("edge-editorial-stalk", [[16, 4, 11, 9, 8]], "editorial example: 1 + 1 - 1/2 - 1/4 + 1/8"),
        ("edge-many-singles-balanced", [[n] for n in range(20)], "ten even and ten odd single numbers"),
        ("edge-many-singles-one-more", [[n] for n in range(21)], "eleven even, ten odd single numbers"),
        ("edge-tiny-positive", [tiny_pos], "value 2**-44: positive, however small"),
        ("edge-tiny-negative", [tiny_neg], "value -2**-44"),
        ("edge-tiny-cancel", [tiny_pos, tiny_neg], "2**-44 - 2**-44 = 0"),
        ("edge-tiny-difference", [tiny_pos, tiny_neg_double], "2**-44 - 2**-43 < 0"),
        ("edge-max-value-odd", [[TOP]], "2**31 - 1 is odd"),
        ("edge-max-value-even", [[TOP - 1]], "2**31 - 2 is even"),
        ("edge-extremes", [[TOP, 0]], "0 under 2**31 - 1: value 1/2"),
        ("edge-top-pair", [[TOP, TOP - 1]], "2**31 - 2 under 2**31 - 1: value 1/2"),
        ("edge-top-pairs-cancel", [[TOP - 1, TOP], [TOP - 2, TOP - 1]], "1/2 - 1/2 = 0"),
        ("edge-repeated-top", [[TOP] * 45], "45 copies of 2**31 - 1 are one odd number"),
        ("edge-repeated-zero", [[0] * 45], "45 zeros are one even number"),
        ("edge-top-and-zero-piles", [[TOP] * 45, [0] * 45], "one move each: 0"),
        ("edge-top-descending", [list(range(TOP, TOP - 45, -1))],
         "45 consecutive numbers below 2**31, given in descending order"),
    ]


def random_tests():
    """Seeded random games of many sizes, value ranges and shapes, some built to cancel."""
    rng = random.Random(20131111)
    shapes = ["small", "top", "mixed", "full", "even", "odd", "alternating", "long-run", "any"]
    tests = []
    for index in range(110):
        piles_count = min(MAX_PILES, max(1, round(math.exp(rng.uniform(0, math.log(100))))))
        longest = rng.choice([1, 3, 8, 20, 45])
        kind = rng.choice(["plain", "plain", "cancel", "cancel-offset", "mirror"])
        if kind == "plain":
            piles = [random_pile(rng, rng.randint(0, longest), rng.choice(shapes))
                     for _ in range(piles_count)]
            note = "random piles"
        elif kind == "mirror":
            half = [random_pile(rng, rng.randint(0, longest), "small")
                    for _ in range((piles_count + 1) // 2)]
            piles = half + [scramble(mirror(sorted(set(pile))), rng) for pile in half]
            rng.shuffle(piles)
            note = "random piles and their parity-flipped copies: they cancel"
        else:
            piles = [random_pile(rng, rng.randint(0, longest), rng.choice(shapes))
                     for _ in range(max(1, piles_count // 2))]
            offset = Fraction(0)
            if kind == "cancel-offset":
                offset = Fraction(rng.choice([-1, 1]), 2 ** rng.randint(0, 44))
            piles = cancel_game(rng, piles, offset)
            note = f"random piles plus piles bringing the total to {offset}"
        tests.append((f"random-{index:03d}", piles, note))
    return tests


def max_tests():
    """100 piles of 45 numbers each, and float traps that need 100 piles."""
    rng = random.Random(45100)
    full = MAX_PILE_LEN

    def stalks(mode, low=0, high=TOP):
        return [numbers_for(random_colours(rng, full, mode), rng, low, high) for _ in range(MAX_PILES)]

    evens = list(range(0, 2 * full, 2))            # value +45
    odds = list(range(1, 2 * full, 2))             # value -45
    tiny_pos = [0] + list(range(1, 88, 2))         # value 2**-44
    tiny_neg = [1] + list(range(2, 89, 2))         # value -2**-44
    big = [evens] * 49 + [tiny_pos] + [odds] * 49
    tests = [
        ("max-float-absorbs-tiny", big,
         "49*45 + 2**-44 - 49*45 = 2**-44: a double sum loses the tiny pile"),
        ("max-float-invents-tiny", [evens] * 49 + [tiny_pos] + [odds] * 49 + [tiny_neg],
         "exactly 0, but a double sum keeps only the last tiny pile"),
        ("max-float-tiny-first", [tiny_neg] + [odds] * 50 + [evens] * 49,
         "-2**-44 - 45: negative by 45 plus a tiny bit"),
        ("max-float-tiny-middle-cancel", [odds] * 49 + [tiny_pos, tiny_neg] + [evens] * 49,
         "exactly 0 with the tiny piles in the middle"),
        ("max-all-even", stalks("even"), "every number even: EVEN wins"),
        ("max-all-odd", stalks("odd"), "every number odd: ODD wins"),
        ("max-alternating", stalks("alternating"), "every pile alternates parity"),
        ("max-random-full-range", [[rng.randint(0, TOP) for _ in range(full)] for _ in range(MAX_PILES)],
         "uniform numbers below 2**31"),
        ("max-near-top", [[TOP - rng.randint(0, 99) for _ in range(full)] for _ in range(MAX_PILES)],
         "numbers in [2**31 - 100, 2**31 - 1], many repeats"),
        ("max-top-two", [[rng.choice([TOP, TOP - 1]) for _ in range(full)] for _ in range(MAX_PILES)],
         "only 2**31 - 1 and 2**31 - 2"),
        ("max-repeated-per-pile", [[rng.randint(0, TOP)] * full for _ in range(MAX_PILES)],
         "every pile is one number 45 times"),
        ("max-same-pile", [list(range(full))] * MAX_PILES, "100 copies of 0..44"),
        ("max-descending", [sorted(pile, reverse=True) for pile in stalks("any")],
         "random stalks given in descending order"),
    ]
    half = [numbers_for(random_colours(rng, full, "any"), rng, 0, 2 ** 30 - 1) for _ in range(50)]
    mirrored = half + [mirror(pile) for pile in half]
    rng.shuffle(mirrored)
    tests.append(("max-mirror-cancel", mirrored, "50 random stalks and their negatives"))
    for offset, name in [(Fraction(0), "max-cancel"), (Fraction(1, 2 ** 44), "max-cancel-plus-tiny"),
                         (Fraction(-1, 2 ** 44), "max-cancel-minus-tiny")]:
        while True:  # random long stalks plus the few piles that bring the sum to the offset
            base = [scramble(numbers_for(random_colours(rng, full - 5, "any"), rng), rng)
                    for _ in range(90)]
            game = cancel_game(rng, base, offset)
            if len(game) <= MAX_PILES:
                break
        while len(game) < MAX_PILES:  # pad with piles that change nothing
            game.append([])
        tests.append((name, game, f"90 random piles plus piles bringing the total to {offset}"))
    for mode in ["any", "long-run"]:
        piles = [scramble(numbers_for(random_colours(rng, rng.randint(20, 40), mode), rng), rng, 1.0)
                 for _ in range(MAX_PILES)]
        tests.append((f"max-scrambled-{mode}", piles, "shuffled stalks, most numbers repeated"))
    return tests


# ---------------------------------------------------------------- writing

def main():
    solve = reference(HERE)
    for file_name, tests in [("edge.yaml", edge_tests()), ("random.yaml", random_tests()),
                             ("max.yaml", max_tests())]:
        write_tests(HERE / "tests" / file_name, [(name, {"piles": piles}, note) for name, piles, note in tests], solve)


if __name__ == "__main__":
    main()
