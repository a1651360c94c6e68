# Wrong tie-break: for a fixed source i it minimises k before j (loops k outside j). The winning
# pair of target piles is not always unique, e.g. g = 1 ^ 2 = 4 ^ 7 = 3, and when two pairs
# (j, k) and (j', k') with j < j' but k > k' both win it returns the second one.


class Roxor:
    def play(self, piles):
        n = len(piles)
        g = [0] * n
        for p in range(n - 2, -1, -1):
            options = {g[a] ^ g[b] for a in range(p + 1, n) for b in range(a, n)}
            while g[p] in options:
                g[p] += 1
        nim = 0
        for p in range(n):
            if piles[p] % 2:
                nim ^= g[p]
        for i in range(n):
            if piles[i]:
                for k in range(i + 1, n):
                    for j in range(i + 1, k + 1):
                        if nim ^ g[i] ^ g[j] ^ g[k] == 0:
                            return [i, j, k]
        return []
