# Wrong: forgets that j may equal k when choosing the move. The Grundy values are right, but the
# move search starts k at j + 1, so moves that put both new stones on one pile are never tried.
# Whenever the first winning move is such a move the answer is wrong, e.g. {2, 1, 1, 1, 5} whose
# answer is {0, 1, 1}.


class Roxor:
    def play(self, piles):
        n = len(piles)
        g = [0] * n
        for p in range(n - 2, -1, -1):
            reach = set()
            for j in range(p + 1, n):
                for k in range(j, n):
                    reach.add(g[j] ^ g[k])
            while g[p] in reach:
                g[p] += 1
        x = 0
        for p in range(n):
            if piles[p] % 2 == 1:
                x ^= g[p]
        for i in range(n):
            if piles[i] > 0:
                for j in range(i + 1, n):
                    for k in range(j + 1, n):
                        if x ^ g[i] ^ g[j] ^ g[k] == 0:
                            return [i, j, k]
        return []
