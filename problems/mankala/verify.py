"""Independent check for Mankala: a label-based simulator plus a breadth-first sweep.

The board is a dict keyed by pit labels; sowing follows an explicit successor table
(so the opponent's home is simply absent from it). Instead of a recursive maximum,
every position reachable during our turn is enumerated breadth-first (pits tried
from 5 down to 0) and the answer is the largest home count seen on the way: home
pieces only ever grow, so the best reachable count is what the best line ends with.
"""
from collections import deque

OURS = [f"mine{i}" for i in range(6)]
THEIRS = [f"theirs{i}" for i in range(6)]
HOME = "home"
# Counter-clockwise order of the pits we sow into; their home is left out on purpose.
CIRCUIT = OURS + [HOME] + THEIRS
SUCCESSOR = {label: CIRCUIT[(k + 1) % len(CIRCUIT)] for k, label in enumerate(CIRCUIT)}


def play(board, start):
    """Play pit `start` of a label->count dict in place; True when the turn goes on."""
    where = start
    while True:
        hand = board[where]
        board[where] = 0
        for _ in range(hand):
            where = SUCCESSOR[where]
            board[where] += 1
        if where == HOME:
            return any(board[label] for label in OURS)
        if board[where] == 1:      # it was empty before this last piece: the turn ends
            return False
        # otherwise the pit already held pieces: lift them and keep sowing


def solve(player1, player2):
    start = dict(zip(OURS, player1)) | dict(zip(THEIRS, player2)) | {HOME: 0}
    seen = {tuple(start[label] for label in CIRCUIT)}
    queue = deque([start])
    best = 0
    while queue:
        board = queue.popleft()
        for label in reversed(OURS):
            if not board[label]:
                continue
            after = dict(board)
            again = play(after, label)
            best = max(best, after[HOME])
            key = tuple(after[name] for name in CIRCUIT)
            if again and key not in seen:
                seen.add(key)
                queue.append(after)
    return best


def random_input(rng):
    """Up to 30 pieces spread over the twelve play pits, often lopsided or sparse."""
    total = rng.randint(0, 30)
    weights = [rng.choice((0, 0, 1, 2, 5)) for _ in range(12)]
    if not any(weights):
        weights[rng.randrange(12)] = 1
    pits = [0] * 12
    for pit in rng.choices(range(12), weights=weights, k=total):
        pits[pit] += 1
    return {"player1": tuple(pits[:6]), "player2": tuple(pits[6:])}
