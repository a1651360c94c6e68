# Wrong: treats every non-empty pile as contributing its Grundy value once, as if a pile were a
# single token, instead of using the parity of its count (two stones on a pile cancel). So
# positions with even piles are misjudged, e.g. {1000, 1000, 1000, 1000, 1000} looks winnable.


class Roxor:
    def play(self, piles):
        n = len(piles)
        g = [0] * n
        for p in range(n - 2, -1, -1):
            options = {g[j] ^ g[k] for j in range(p + 1, n) for k in range(j, n)}
            while g[p] in options:
                g[p] += 1

        def value(state):
            v = 0
            for p in range(n):
                if state[p] > 0:
                    v ^= g[p]
            return v

        for i in range(n):
            if piles[i] == 0:
                continue
            for j in range(i + 1, n):
                for k in range(j, n):
                    after = list(piles)
                    after[i] -= 1
                    after[j] += 1
                    after[k] += 1
                    if value(after) == 0:
                        return [i, j, k]
        return []
