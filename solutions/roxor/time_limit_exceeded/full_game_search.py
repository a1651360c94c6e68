# Too slow: plays the game out. A memoised search over whole pile states finds the first move
# after which the opponent (to move) loses. Correct, and instant when few stones are in play, but
# a stone d piles before the last one can trigger 2^d - 1 further moves, so with hundreds of
# stones the number of reachable states is astronomical (first on {1000, 1000, 1000, 1000, 1000}).
import sys

sys.setrecursionlimit(1000000)


class Roxor:
    def play(self, piles):
        n = len(piles)
        memo = {}

        def win(state):
            if state in memo:
                return memo[state]
            result = False
            for i in range(n - 1):
                if state[i] == 0:
                    continue
                for j in range(i + 1, n):
                    for k in range(j, n):
                        nxt = list(state)
                        nxt[i] -= 1
                        nxt[j] += 1
                        nxt[k] += 1
                        if not win(tuple(nxt)):
                            result = True
                            break
                    if result:
                        break
                if result:
                    break
            memo[state] = result
            return result

        start = tuple(piles)
        for i in range(n - 1):
            if start[i] == 0:
                continue
            for j in range(i + 1, n):
                for k in range(j, n):
                    nxt = list(start)
                    nxt[i] -= 1
                    nxt[j] += 1
                    nxt[k] += 1
                    if not win(tuple(nxt)):
                        return [i, j, k]
        return []
