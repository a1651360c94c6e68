# Runtime error: collects every winning move and returns the smallest with min(), forgetting that
# a lost position has no winning move at all. min() of an empty list raises ValueError, first on
# {1000, 1000, 1000, 1000, 1000}.


class Roxor:
    def play(self, piles):
        n = len(piles)
        g = [0] * n
        for p in range(n - 2, -1, -1):
            options = {g[j] ^ g[k] for j in range(p + 1, n) for k in range(j, n)}
            while g[p] in options:
                g[p] += 1
        total = 0
        for p in range(n):
            if piles[p] % 2:
                total ^= g[p]
        winning = [(i, j, k) for i in range(n) if piles[i] for j in range(i + 1, n)
                   for k in range(j, n) if total ^ g[i] ^ g[j] ^ g[k] == 0]
        return list(min(winning))
