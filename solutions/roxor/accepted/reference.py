# Reference: Sprague-Grundy with a closed form. Every stone is an independent game; a stone
# d piles before the last one has Grundy value equal to the (d-1)-th odious number (a number
# with an odd count of one bits: 1, 2, 4, 7, 8, 11, ...), and 0 on the last pile. Two equal
# stones cancel, so only pile parities matter. A move (i, j, k) wins exactly when it brings
# the nim-sum to zero; scanning i, j, k in increasing order yields the required tie-break.
# O(n^3) with n <= 15: accepted.


def odious(m):
    """The m-th odious number (0-based): 2m, plus one when m has an even number of one bits."""
    return 2 * m + (1 - bin(m).count("1") % 2)


class Roxor:
    def play(self, piles):
        n = len(piles)
        grundy = [odious(n - 2 - p) if p < n - 1 else 0 for p in range(n)]
        total = 0
        for p in range(n):
            if piles[p] % 2:
                total ^= grundy[p]
        for i in range(n):
            if piles[i] == 0:
                continue
            for j in range(i + 1, n):
                for k in range(j, n):
                    if total ^ grundy[i] ^ grundy[j] ^ grundy[k] == 0:
                        return [i, j, k]
        return []
