"""Any pair of positions i < j whose values add up to the target is right; [] only when none exists."""


def check(args, expected, got):
    values, target = args["values"], args["target"]
    if not got:
        return None if not expected else f"returned no pair, but {list(expected)} adds up to {target}"
    if len(got) != 2:
        return f"expected two positions, got {len(got)}"
    i, j = got
    if not 0 <= i < j < len(values):
        return f"positions {i}, {j} are not i < j within the array"
    if values[i] + values[j] != target:
        return f"values[{i}] + values[{j}] = {values[i] + values[j]}, not {target}"
    return None
