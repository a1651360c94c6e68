# Wrong: lets i == j, so it may use one value twice ([-50, 0, -50] with -100 gives [0, 0]).
class PairSum:
    def find(self, values, target):
        for i in range(len(values)):
            for j in range(i, len(values)):
                if values[i] + values[j] == target:
                    return [i, j]
        return []
