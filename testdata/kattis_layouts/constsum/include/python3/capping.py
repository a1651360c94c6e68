"""Given to every Python submission: the cap, from the package's constants."""
CAP = {{cap}}


def capped(total: int) -> int:
    return min(total, CAP)
