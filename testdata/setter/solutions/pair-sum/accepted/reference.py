# The reference: the first pair in (i, j) order.
class PairSum:
    def find(self, values, target):
        for i in range(len(values)):
            for j in range(i + 1, len(values)):
                if values[i] + values[j] == target:
                    return [i, j]
        return []
