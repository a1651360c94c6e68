"""Writes our own tests of DoorsGame: tests/edge.yaml, tests/max.yaml and tests/random.yaml.

Expected values come from the reference solution; verify.py confirms them independently.
Random cases use a fixed seed, so every run writes the same files byte for byte.
Run from anywhere: python problems/doorsgame/generator.py
"""

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
from tcjudge.testgen import reference, write_tests  # noqa: E402
SEED = 470
COLOURS = "ABCDEFGHIJKLMNOP"
MAX_LENGTH = 50
UNIFORM_CASES = 30
SHAPED_CASES = 60

# (name, doors, trophy, note): the smallest rows, ties between the two races, shared colours
# next to the trophy (which catch an off-by-one split) and the extreme answers.
EDGE_CASES = [
    ("edge-two-doors-distinct", "AB", 1, "each player needs one colour; John picks first"),
    ("edge-two-doors-same", "KK", 1, "the only colour opens both doors at once"),
    ("edge-john-one-shared-colour", "ABB", 1, "John needs A only"),
    ("edge-shared-colour-beside-trophy", "ABB", 2, "B is on both doors next to the trophy room"),
    ("edge-gogo-one-door", "ABC", 2, "Gogo needs C only and John needs two colours"),
    ("edge-tie-no-shared", "ABCDEFGH", 4, "four colours each: moving first, John wins the tie"),
    ("edge-tie-with-shared", "ABPPCDE", 3, "John needs A, B, P; Gogo has three colours of his own"),
    ("edge-gogo-one-ahead", "ABCDEFG", 4, "four colours against three: Gogo wins"),
    ("edge-draw-balanced", "ABPPC", 3, "Gogo's colours plus the shared one equal John's own"),
    ("edge-draw-gogo-one-colour-over", "ABCPPDE", 4, "with one colour fewer Gogo would win"),
    ("edge-john-one-colour-to-spare", "ABPPCDEF", 3, "John needs A, B, P against Gogo's C, D, E, F"),
    ("edge-shared-only-on-john-side", "PAPBCD", 3, "a colour repeated on John's side is not shared"),
    ("edge-shared-at-trophy-draw", "ABCDDEF", 4, "D is on both doors next to the trophy room"),
    ("edge-trophy-first-room-shared", "PABCPDEF", 1, "John needs P only, which Gogo needs too"),
    ("edge-trophy-first-room-only-shared", "PPPP", 1, "one colour for everything"),
    ("edge-trophy-last-room", "ABCDEFGHIJKLMNOA", 15, "Gogo needs A, which John needs too"),
    ("edge-trophy-last-room-own", "ABCDEFGHIJKLMNOP", 15, "Gogo needs P only"),
    ("edge-one-colour-each-side", "AAAAAAAAAAB", 10, "many doors but one colour per side"),
    ("edge-one-against-fifteen", "ABCDEFGHIJKLMNOP", 1, "John needs A only"),
    ("edge-all-colours-shared", "ABCDEFGHIJKLMNOPPONMLKJIHGFEDCBA", 16, "every colour on both sides"),
]

MAX_CASES = [
    ("max-john-longest-win", "ABCDEFGH" * 3 + "A" + "IJKLMNOP" * 3 + "I", 25,
     "eight colours each: John wins on the fifteenth pick"),
    ("max-gogo-longest-win", "ABCDEFGH" * 3 + "A" + "IJKLMNO" * 3 + "IJKL", 25,
     "eight colours against seven: Gogo wins on the fourteenth pick"),
    ("max-one-colour", "P" * MAX_LENGTH, 25, "fifty doors of one colour"),
    ("max-trophy-first-room", "A" + "BCDEFGHIJKLMNOP" * 3 + "BCDE", 1, "John needs A only"),
    ("max-trophy-last-room", "ABCDEFGHIJKLMNO" * 3 + "ABCD" + "P", 49, "Gogo needs P only"),
    ("max-trophy-last-room-shared", "ABCDEFGHIJKLMNOP" * 3 + "AB", 49, "Gogo needs B, John needs it too"),
    ("max-alternating-two", "AB" * 25, 25, "both sides use A and B"),
    ("max-cycle-all-colours", (COLOURS * 4)[:MAX_LENGTH], 24, "all sixteen colours on both sides"),
    ("max-shared-block-in-middle", "ABCDEF" * 4 + "HH" + "KLMNOP" * 4, 25,
     "six own colours each and H beside the trophy"),
    ("max-john-wins-with-shared", "ABCAB" * 5 + "CDEFGHIJ" * 3 + "D", 25,
     "John needs A, B, C; Gogo needs C and seven own colours"),
    ("max-gogo-wins-with-shared", "ABCDEFGHIJ" * 2 + "KKKKK" + "KLMK" * 6 + "L", 25,
     "Gogo needs K, L, M; John needs K and ten own colours"),
]


def uniform_case(rng):
    """Any row: random length, random palette of 1 to 16 colours, random trophy room."""
    palette = rng.sample(COLOURS, rng.randint(1, len(COLOURS)))
    doors = "".join(rng.choice(palette) for _ in range(rng.randint(2, MAX_LENGTH)))
    return doors, rng.randint(1, len(doors) - 1)


def shaped_case(rng):
    """A row built from chosen numbers of John-only, Gogo-only and shared colours."""
    while True:
        own_john, own_gogo, shared = (rng.randint(0, 8) for _ in range(3))
        if own_john + shared and own_gogo + shared and own_john + own_gogo + shared <= len(COLOURS):
            break
    palette = rng.sample(COLOURS, own_john + own_gogo + shared)
    john_side = palette[:own_john] + palette[own_john + own_gogo:]
    gogo_side = palette[own_john:]
    john_length = rng.randint(len(john_side), MAX_LENGTH - len(gogo_side))
    gogo_length = rng.randint(len(gogo_side), MAX_LENGTH - john_length)
    return row_using(rng, john_side, john_length) + row_using(rng, gogo_side, gogo_length), john_length


def row_using(rng, colours, length):
    """A shuffled run of doors of the given length showing every one of the colours."""
    doors = list(colours) + [rng.choice(colours) for _ in range(length - len(colours))]
    rng.shuffle(doors)
    return "".join(doors)


def random_cases(rng, solve):
    """Uniform rows (mostly draws), then shaped rows cycling through John win, Gogo win and draw."""
    cases = [uniform_case(rng) for _ in range(UNIFORM_CASES)]
    for index in range(SHAPED_CASES):
        wanted_sign = (1, -1, 0)[index % 3]
        while True:
            doors, trophy = shaped_case(rng)
            result = solve(doors, trophy)
            if (result > 0) - (result < 0) == wanted_sign:
                break
        cases.append((doors, trophy))
    return [(f"random-{index:03d}", doors, trophy) for index, (doors, trophy) in enumerate(cases)]


def as_tests(cases):
    """(name, doors, trophy[, note]) rows as the test writer takes them."""
    return [(name, {"doors": doors, "trophy": trophy}, *note) for name, doors, trophy, *note in cases]


def main():
    solve = reference(HERE)
    tests = HERE / "tests"
    generated = "Generated by generator.py; expected values from the reference, confirmed by verify.py."
    write_tests(tests / "edge.yaml", as_tests(EDGE_CASES), solve, f"Small corner cases.\n{generated}")
    write_tests(tests / "max.yaml", as_tests(MAX_CASES), solve,
                f"Rows of the maximum length, {MAX_LENGTH} doors.\n{generated}")
    write_tests(tests / "random.yaml", as_tests(random_cases(random.Random(SEED), solve)), solve,
                f"Seeded random rows (seed {SEED}).\n{generated}")


if __name__ == "__main__":
    main()
