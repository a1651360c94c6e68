"""Independent check for DoorsGame: an exhaustive game search over sets of opened colours.

It knows nothing about counting colours; it plays the rules literally. A state is the set of colours
chosen so far (a 16-bit mask; whose turn it is follows from its size). Outcomes are scored from John's
side so that the statement's preferences become one order: a John win after X colours scores
WIN - X, a draw 0 and a Gogo win after X colours -WIN + X. John maximises and Gogo minimises, so
each wins as fast as possible, else draws, else loses as late as possible. The search is alpha-beta
with a table of proven bounds per set, which returns the exact minimax value. Colours used by no
door are interchangeable, so only the lowest unused one is tried (the others lead to mirror-image
states); every other colour is tried separately.
"""

COLOURS = 16
ALL_COLOURS = (1 << COLOURS) - 1
WIN = 100  # larger than any game length


def _mask(part):
    """Bit set of the colours of a run of doors."""
    bits = 0
    for colour in part:
        bits |= 1 << (ord(colour) - ord("A"))
    return bits


def _best_score(john_needs, gogo_needs):
    """John-side score of the game in which John must open john_needs and Gogo gogo_needs."""
    idle = ALL_COLOURS & ~(john_needs | gogo_needs)
    bounds = {}  # opened set -> (lower, upper) bound proven for its score

    def search(opened, chosen, alpha, beta):
        lower, upper = bounds.get(opened, (-WIN, WIN))
        if lower >= beta or lower == upper:
            return lower
        if upper <= alpha:
            return upper
        window = (alpha, beta)
        alpha, beta = max(alpha, lower), min(beta, upper)
        john_moves = chosen % 2 == 0
        closed = ALL_COLOURS & ~opened
        closed_idle = closed & idle
        choices = (closed & ~idle) | (closed_idle & -closed_idle)
        best = -WIN - 1 if john_moves else WIN + 1
        while choices:
            colour = choices & -choices
            choices ^= colour
            now_open = opened | colour
            john_in = now_open & john_needs == john_needs
            gogo_in = now_open & gogo_needs == gogo_needs
            if john_in and gogo_in:
                score = 0
            elif john_in:
                score = WIN - (chosen + 1)
            elif gogo_in:
                score = -WIN + (chosen + 1)
            else:
                score = search(now_open, chosen + 1, alpha, beta)
            if john_moves:
                best = max(best, score)
                alpha = max(alpha, best)
            else:
                best = min(best, score)
                beta = min(beta, best)
            if alpha >= beta:
                break
        if best <= window[0]:
            bounds[opened] = (lower, best)
        elif best >= window[1]:
            bounds[opened] = (best, upper)
        else:
            bounds[opened] = (best, best)
        return best

    return search(0, 0, -WIN - 1, WIN + 1)


def solve(doors, trophy):
    """The method's answer: colours chosen when John wins, minus that when Gogo wins, 0 on a draw."""
    score = _best_score(_mask(doors[:trophy]), _mask(doors[trophy:]))
    if score > 0:
        return WIN - score
    if score < 0:
        return -(WIN + score)
    return 0


def random_input(rng):
    """A short door row over a few random colours, with a valid trophy room."""
    palette = rng.sample("ABCDEFGHIJKLMNOP", rng.randint(1, 7))
    doors = "".join(rng.choice(palette) for _ in range(rng.randint(2, 12)))
    return {"doors": doors, "trophy": rng.randint(1, len(doors) - 1)}
