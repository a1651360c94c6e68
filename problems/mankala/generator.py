"""Writes our own tests of Mankala: tests/edge.yaml, tests/random.yaml and tests/max.yaml.

Expected values come from the reference solution; verify.py confirms them independently.
Random cases and the search for "best first pit" boards use fixed seeds, so every run writes
the same files byte for byte. Run from anywhere: python problems/mankala/generator.py
"""

import importlib.util
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
from tcjudge.testgen import reference, write_tests  # noqa: E402

SEED = 535
MAX_PIECES = 30
RANDOM_CASES = 100
EMPTY = [0] * 6


def board(mine, theirs=EMPTY):
    return {"player1": list(mine), "player2": list(theirs)}


def single_piece(pit):
    pits = [0] * 12
    pits[pit] = 1
    return board(pits[:6], pits[6:])


def alone(pit, pieces):
    """`pieces` in our pit `pit` and nothing anywhere else."""
    mine = [0] * 6
    mine[pit] = pieces
    return board(mine)


EDGE_CASES = [
    ("edge-all-empty", board(EMPTY), "nothing on the board"),
    ("edge-our-side-empty-full-board", board(EMPTY, [5] * 6), "30 pieces, none of them ours: no move"),
    ("edge-our-side-empty-one-pit", board(EMPTY, [0, 0, 0, 0, 0, 30]), "30 pieces in pit 11: no move"),
    *[(f"edge-single-piece-pit-{pit}", single_piece(pit),
       "one piece on the whole board" + ("" if pit < 6 else ", on the opponent's side"))
      for pit in range(12)],
    *[(f"edge-exact-reach-home-pit-{pit}", alone(pit, 6 - pit),
       f"pit {pit} holds {6 - pit}, exactly enough for its last piece to land home")
      for pit in range(6)],
    ("edge-one-past-home", alone(5, 2), "pit 5 with 2: one piece home, the last in the empty pit 6"),
    ("edge-their-side-only-receives", board([0, 0, 0, 0, 0, 7]),
     "7 pieces from pit 5: one home, the rest spread over the empty pits 6 to 11"),
    ("edge-relay-past-their-home", board([5, 0, 0, 0, 0, 8]),
     "pit 5's last piece skips their home into pit 0, whose 6 pieces then reach our home"),
    ("edge-relay-lifts-their-pit", board([0, 0, 0, 0, 0, 2], [1, 0, 0, 0, 0, 0]),
     "the last piece lands on pit 6, whose 2 pieces are lifted and sown on"),
    ("edge-relay-round-their-side", board([0, 0, 0, 0, 0, 3], [0, 4, 0, 0, 0, 0]),
     "a relay from pit 7 runs round the opponent's side and back onto ours"),
    *[(f"edge-thirteen-back-to-start-pit-{pit}", alone(pit, 13),
       "13 pieces go once round and the last lands in the pit just emptied: the turn ends")
      for pit in range(6)],
    ("edge-twenty-six-relay-from-start", alone(2, 26),
     "26 pieces: the second lap ends on the start pit, which got a piece on the first lap"),
    ("edge-fourteen-pit-5", alone(5, 14), "14 pieces from pit 5: a full lap and the last piece lands home"),
    *[(f"chain-all-home-{len_}", board(mine), f"all {len_} pieces reach home in one turn of extra moves")
      for len_, mine in ((3, [0, 0, 0, 0, 2, 1]), (7, [0, 0, 4, 0, 2, 1]), (13, [0, 5, 3, 3, 1, 1]),
                         (15, [0, 5, 4, 3, 2, 1]), (17, [6, 4, 3, 2, 1, 1]))],
    ("chain-tchoukaillon-broken", board([6, 5, 4, 3, 2, 1]),
     "every pit reaches home exactly, but playing one upsets the pits after it"),
    ("chain-with-opponent-pieces", board([6, 4, 3, 2, 1, 1], [3, 1, 3, 2, 2, 2]),
     "the 17-piece chain board with 13 more pieces on the opponent's side"),
]

# Boards with the most move sequences found by an offline local search over all 30-piece boards
# (hundreds of thousands of sequences each): long chains of extra moves with relays.
DEEP_CHAINS = [
    [2, 1, 3, 1, 1, 1, 2, 1, 0, 8, 6, 4],
    [2, 1, 3, 0, 2, 1, 2, 1, 0, 8, 6, 4],
    [2, 1, 3, 3, 1, 1, 0, 1, 0, 8, 6, 4],
    [3, 1, 3, 1, 1, 1, 1, 0, 9, 0, 5, 5],
    [2, 2, 1, 2, 1, 1, 2, 1, 0, 8, 6, 4],
]

MAX_CASES = [
    *[(f"max-deep-chain-{k}", board(pits[:6], pits[6:]), "30 pieces; hundreds of thousands of move sequences")
      for k, pits in enumerate(DEEP_CHAINS)],
    *[(f"max-thirty-in-pit-{pit}", alone(pit, 30), "all 30 pieces in one of our pits: more than two laps")
      for pit in range(6)],
    ("max-thirty-in-their-pit-6", board(EMPTY, [30, 0, 0, 0, 0, 0]), "all 30 pieces out of reach"),
    ("max-all-fives-ours", board([5] * 6), "30 pieces, all on our side"),
    ("max-every-pit-filled", board([3, 3, 3, 3, 3, 3], [2, 2, 2, 2, 2, 2]),
     "every pit non-empty: each move relays until it lands home or on a lifted pit"),
    ("max-ascending", board([0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5]), "30 pieces, counts growing round the board"),
    ("max-descending", board([6, 5, 4, 3, 2, 1], [4, 3, 2, 0, 0, 0]), "30 pieces, counts shrinking round the board"),
    ("max-alternating", board([5, 0, 5, 0, 5, 0], [0, 5, 0, 5, 0, 5]), "30 pieces in every other pit"),
    ("max-two-big-pits", board([15, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 15]), "two piles of 15"),
    ("max-twenty-nine-and-one", board([0, 0, 0, 0, 1, 29]), "29 pieces in pit 5 and one in pit 4"),
]


def load_reference_module():
    """The reference solution as a module: its `sow` tells what each first move yields."""
    path = ROOT / "solutions" / HERE.name / "accepted" / "reference.py"
    spec = importlib.util.spec_from_file_location("_mankala_reference", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def first_move_values(ref, player1, player2):
    """Pieces brought home with best play after each legal first move, by pit."""
    values = {}
    for pit in range(6):
        if player1[pit]:
            after, gained, again = ref.sow(tuple(player1) + (0,) + tuple(player2) + (0,), pit)
            values[pit] = gained + (ref.Mankala().greedyMove(after[:6], after[7:13]) if again else 0)
    return values


def random_board(rng, total):
    """`total` pieces dropped into the twelve pits with random, often lopsided, weights."""
    weights = [rng.choice((0, 1, 1, 2, 4)) for _ in range(12)]
    if not any(weights[:6]):
        weights[rng.randrange(6)] = 1
    pits = [0] * 12
    for pit in rng.choices(range(12), weights=weights, k=total):
        pits[pit] += 1
    return pits


def best_first_pit_cases(ref, rng):
    """For each pit, the first random board on which starting there is the only best move."""
    cases = []
    for pit in range(6):
        while True:
            pits = random_board(rng, rng.randint(12, MAX_PIECES))
            values = first_move_values(ref, pits[:6], pits[6:])
            best = max(values.values())
            if values.get(pit) == best and list(values.values()).count(best) == 1 and best > 1:
                break
        cases.append((f"edge-best-first-pit-{pit}", board(pits[:6], pits[6:]),
                      f"only a first move from pit {pit} reaches the maximum"))
    return cases


def random_cases(rng):
    cases = []
    for index in range(RANDOM_CASES):
        total = MAX_PIECES if index % 2 == 0 else rng.randint(1, MAX_PIECES)
        pits = random_board(rng, total)
        if index % 10 == 9:
            pits = pits[:6] + [0] * 6
            note = f"{sum(pits)} pieces, opponent's side empty"
        else:
            note = f"{total} pieces"
        cases.append((f"random-{index:03d}", board(pits[:6], pits[6:]), note))
    return cases


def main():
    solve = reference(HERE)
    rng = random.Random(SEED)
    tests = HERE / "tests"
    edge = EDGE_CASES + best_first_pit_cases(load_reference_module(), rng)
    write_tests(tests / "edge.yaml", edge, solve)
    write_tests(tests / "random.yaml", random_cases(rng), solve)
    write_tests(tests / "max.yaml", MAX_CASES, solve)


if __name__ == "__main__":
    main()
