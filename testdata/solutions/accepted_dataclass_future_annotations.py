# expect: AC
# A dataclass under postponed annotations: dataclasses looks its module up in sys.modules,
# as it does when `python3 solution.py` runs the file, so the solution's module must be registered.
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Term:
    value: int
    factor: int


class Adder:
    def add(self, values, factor):
        return sum(Term(v, factor).value * factor for v in values)
