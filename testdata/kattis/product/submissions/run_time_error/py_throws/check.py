def product(a, b):
    raise ValueError(f"refusing to multiply {a} by {b}")
