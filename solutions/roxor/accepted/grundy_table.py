# Grundy values by dynamic programming, move by table look-up. Pile values are computed from the
# last pile backwards as the mex of g[j] ^ g[k] over all splits; the position value is the XOR of
# g[p] over piles with an odd count. For each source i (in order) the two new stones must carry
# the value need = total ^ g[i], so for every j the partner k is found through a map from Grundy
# value to pile (values are distinct, except that only the last pile has 0). O(n^2) after an
# O(n^3) precomputation: accepted.


class Roxor:
    def play(self, piles):
        n = len(piles)
        g = [0] * n
        for p in range(n - 2, -1, -1):
            seen = set(g[j] ^ g[k] for j in range(p + 1, n) for k in range(j, n))
            while g[p] in seen:
                g[p] += 1
        pile_of_value = {value: p for p, value in enumerate(g)}
        total = 0
        for p in range(n):
            if piles[p] & 1:
                total ^= g[p]
        for i in range(n - 1):
            if piles[i] == 0:
                continue
            need = total ^ g[i]
            for j in range(i + 1, n):
                k = pile_of_value.get(need ^ g[j])
                if k is not None and k >= j:
                    return [i, j, k]
        return []
